// polydoku Alloy model: 4x4, boxes 2x2, classic rules, 4 givens
// Every cell holds one number; the rules say which cells differ; the puzzle
// predicate holds the givens. Run the command at the end (Alloy 6).

abstract sig Number {}
one sig N1, N2, N3, N4 extends Number {}

abstract sig Row {}
one sig R1, R2, R3, R4 extends Row {}

abstract sig Column {}
one sig C1, C2, C3, C4 extends Column {}

abstract sig Box {}
one sig B1, B2, B3, B4 extends Box {}

abstract sig Cell {
  row: one Row,
  column: one Column,
  box: one Box,
  number: one Number
}
one sig r1c1, r1c2, r1c3, r1c4 extends Cell {}
one sig r2c1, r2c2, r2c3, r2c4 extends Cell {}
one sig r3c1, r3c2, r3c3, r3c4 extends Cell {}
one sig r4c1, r4c2, r4c3, r4c4 extends Cell {}

fact Grid {
  r1c1.row = R1 and r1c1.column = C1 and r1c1.box = B1
  r1c2.row = R1 and r1c2.column = C2 and r1c2.box = B1
  r1c3.row = R1 and r1c3.column = C3 and r1c3.box = B2
  r1c4.row = R1 and r1c4.column = C4 and r1c4.box = B2
  r2c1.row = R2 and r2c1.column = C1 and r2c1.box = B1
  r2c2.row = R2 and r2c2.column = C2 and r2c2.box = B1
  r2c3.row = R2 and r2c3.column = C3 and r2c3.box = B2
  r2c4.row = R2 and r2c4.column = C4 and r2c4.box = B2
  r3c1.row = R3 and r3c1.column = C1 and r3c1.box = B3
  r3c2.row = R3 and r3c2.column = C2 and r3c2.box = B3
  r3c3.row = R3 and r3c3.column = C3 and r3c3.box = B4
  r3c4.row = R3 and r3c4.column = C4 and r3c4.box = B4
  r4c1.row = R4 and r4c1.column = C1 and r4c1.box = B3
  r4c2.row = R4 and r4c2.column = C2 and r4c2.box = B3
  r4c3.row = R4 and r4c3.column = C3 and r4c3.box = B4
  r4c4.row = R4 and r4c4.column = C4 and r4c4.box = B4
}

fact Rules_of_the_game {
  // each row: no number twice
  all disj a, b: Cell | a.row = b.row implies a.number != b.number
  // each column: no number twice
  all disj a, b: Cell | a.column = b.column implies a.number != b.number
  // each box: no number twice
  all disj a, b: Cell | a.box = b.box implies a.number != b.number
}

pred Puzzle_puzzle {
  r1c2.number = N3
  r1c4.number = N4
  r3c3.number = N1
  r4c1.number = N2
}

run Puzzle_puzzle for exactly 4 Number, exactly 4 Row, exactly 4 Column, exactly 4 Box, exactly 16 Cell

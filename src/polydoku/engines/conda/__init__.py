"""The conda family: a puzzle becomes a conda channel (`repodata.json`) solved by libsolv
(`libsolv-conda`) and resolvo (`rattler`). `encode` and `decode` are pure, `run` holds the
sandbox and the child process, `worker` is the child (it imports nothing from polydoku),
`export` writes the channel with a README for people.
"""

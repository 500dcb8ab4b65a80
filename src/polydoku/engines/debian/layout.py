"""The private apt tree a Packages file is solved in: config, empty dpkg status, state and cache.

Pure: returns file names and contents, and the command lines that use them; `run.py` writes the
files into a sandbox and runs the commands, `export.py` writes them into a folder for a person.

Every directory apt or aptitude reads or writes points inside the tree, so the host's package
state (`/var/lib/dpkg/status`, `/etc/apt`, `/var/lib/apt`, `/var/cache/apt`, `/var/log/apt`,
`/var/lib/aptitude`) is never read or changed, and no lock is taken.
"""

from __future__ import annotations

ARCH = "amd64"
APT_CONF = "apt.conf"
PACKAGES = "repo/Packages"
ROOT_PACKAGE = "puzzle"
# The aptitude hint without which aptitude "solves" the request by not installing puzzle at all.
APTITUDE_HINT = f"reject {ROOT_PACKAGE} :UNINST"
EMPTY_DIRS = ("etc/apt/apt.conf.d", "etc/apt/preferences.d", "etc/apt/sources.list.d",
              "etc/apt/trusted.gpg.d", "state/lists/partial", "state/aptitude",
              "cache/archives/partial", "log", "home")


def apt_settings(root: str) -> list[tuple[str, str]]:
    """Return the apt options that keep every apt/aptitude path inside the tree at `root`."""
    return [
        ("Dir::Etc", f"{root}/etc/apt/"),
        ("Dir::Etc::sourcelist", f"{root}/etc/apt/sources.list"),
        ("Dir::Etc::sourceparts", f"{root}/etc/apt/sources.list.d/"),
        ("Dir::Etc::parts", f"{root}/etc/apt/apt.conf.d/"),
        ("Dir::Etc::preferencesparts", f"{root}/etc/apt/preferences.d/"),
        ("Dir::State", f"{root}/state/"),
        ("Dir::State::status", f"{root}/state/status"),
        ("Dir::Cache", f"{root}/cache/"),
        ("Dir::Log", f"{root}/log/"),
        ("Dir::Aptitude::state", f"{root}/state/aptitude/"),
        ("APT::Architecture", ARCH),
        ("APT::Architectures", ARCH),
        ("Debug::NoLocking", "true"),
        ("APT::Sandbox::User", "root"),   # the file: source is in a private dir _apt cannot read
    ]


def apt_conf(root: str) -> str:
    """Return the text of the private apt.conf (read through APT_CONFIG before anything else)."""
    lines = [f'{key} "{value}";' for key, value in apt_settings(root)]
    return "// polydoku's private apt configuration: nothing of the host's is read.\n" + \
        "\n".join(lines) + "\n"


def sources_list(root: str) -> str:
    """Return the sources.list naming the tree's flat repository."""
    return f"deb [trusted=yes] file:{root}/repo ./\n"


def tree_files(root: str, packages: str) -> dict[str, str]:
    """Return {relative path: content} of the whole tree (empty dirs carry a `.keep` file)."""
    files = {PACKAGES: packages, APT_CONF: apt_conf(root),
             "etc/apt/sources.list": sources_list(root), "state/status": ""}
    files.update({f"{d}/.keep": "" for d in EMPTY_DIRS})
    return files


def apt_options(root: str) -> list[str]:
    """Return the `-o KEY=VALUE` arguments of the tree's settings."""
    out: list[str] = []
    for key, value in apt_settings(root):
        out += ["-o", f"{key}={value}"]
    return out


def update_command(root: str) -> list[str]:
    """Return the apt-get command that reads the tree's repository into its private lists."""
    return ["apt-get", *apt_options(root), "update"]


def apt_command(root: str, solver: str | None = None) -> list[str]:
    """Return the apt-get simulation (apt's own solver, or an EDSP solver such as aspcud)."""
    extra = ["--solver", solver] if solver else []
    return ["apt-get", *apt_options(root), "-s", *extra, "install", ROOT_PACKAGE]


def aptitude_command(root: str, step_limit: int | None = None) -> list[str]:
    """Return the aptitude simulation, with the hint that keeps `puzzle` in the answer."""
    extra = ["-o", f"Aptitude::ProblemResolver::StepLimit={step_limit}"] if step_limit else []
    return ["aptitude", *apt_options(root),
            "-o", f"Aptitude::ProblemResolver::Hints::={APTITUDE_HINT}",
            "-o", f"Aptitude::Log={root}/log/aptitude", *extra, "-s", "-y", "install", ROOT_PACKAGE]


def dose_command(root: str) -> list[str]:
    """Return the dose-distcheck command that prints the installation set it found for puzzle."""
    # `puzzle:amd64`: dose names an Architecture: all package by the native architecture
    return ["dose-distcheck", "--successes", "--failures", "--explain",
            f"--deb-native-arch={ARCH}", f"--checkonly={ROOT_PACKAGE}:{ARCH}",
            f"deb://{root}/{PACKAGES}"]

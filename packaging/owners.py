#!/usr/bin/env python3
"""Refuses to publish under a name someone else holds: for each package the release is about to
publish, asks the registry who owns that name, and fails unless every owner is one of those
packaging/owners.json expects. A name the registry does not know yet is fine (the publish claims
it); a name it cannot tell the owners of, or an answer it cannot read, fails (closed).

    python3 packaging/owners.py npm npm/*.tgz          # each tarball's package name
    python3 packaging/owners.py npm tool-conformance   # or names
    python3 packaging/owners.py pypi wheels/*.whl      # each wheel's project name

npm: `npm view NAME name maintainers --json` (E404: no such package); the maintainers are npm
user names. PyPI: the project's JSON API (404: no such project) and the roles of the project
(XML-RPC `package_roles`, and the JSON API's `ownership` where it has one); the owners are PyPI
user names (and an organization, if the project belongs to one).

Standard library only. TOOL_CONFORMANCE_PYPI sets the PyPI base URL (https://pypi.org), and
`npm` is whatever npm is on PATH; the tests point both at fakes.
"""

import json
import os
import re
import subprocess
import sys
import tarfile
import urllib.error
import urllib.request
import xmlrpc.client

HERE = os.path.dirname(os.path.abspath(__file__))
OWNERS = os.path.join(HERE, "owners.json")


class Refused(Exception):
    """Publishing this name is refused, saying why."""


def expected(registry, path=OWNERS):
    """The owners packaging/owners.json expects on a registry (never empty)."""
    with open(path, encoding="utf-8") as file:
        owners = json.load(file).get(registry)
    if not isinstance(owners, list) or not owners or not all(isinstance(o, str) and o for o in owners):
        raise Refused(f"{path} lists no {registry} owners: nothing to compare the registry's answer with")
    return set(owners)


def npm_name(argument):
    """The package name of a tarball `npm pack` wrote, or the argument itself."""
    if not argument.endswith(".tgz"):
        return argument
    with tarfile.open(argument, "r:gz") as tarball:
        return json.load(tarball.extractfile("package/package.json"))["name"]


def pypi_name(argument):
    """The normalized project name of a wheel or sdist file, or of the argument itself."""
    base = os.path.basename(argument)
    if base.endswith((".whl", ".tar.gz")):
        base = base.split("-")[0]
    return re.sub(r"[-_.]+", "-", base).lower()


def npm_owners(name):
    """The npm user names of the package's maintainers; None when npm has no such package."""
    ran = subprocess.run(["npm", "view", name, "name", "maintainers", "--json"], capture_output=True, text=True)
    try:
        answer = json.loads(ran.stdout) if ran.stdout.strip() else None
    except ValueError:
        raise Refused(f"npm view {name}: not JSON: {ran.stdout[:200]!r}") from None
    if ran.returncode != 0:
        code = answer.get("error", {}).get("code") if isinstance(answer, dict) else None
        if code == "E404":
            return None
        raise Refused(f"npm view {name} failed (exit {ran.returncode}, {code or 'no error code'}): {ran.stderr.strip()[:300]}")
    maintainers = answer.get("maintainers") if isinstance(answer, dict) else None
    if not isinstance(maintainers, list) or not maintainers:
        raise Refused(f"npm has {name} but names no maintainers of it: who holds it cannot be told")
    owners = set()
    for maintainer in maintainers:
        user = maintainer.get("name") if isinstance(maintainer, dict) else str(maintainer).split(" <")[0]
        if not user:
            raise Refused(f"npm names a maintainer of {name} without a user name: {maintainer!r}")
        owners.add(user.strip())
    return owners


def pypi_owners(name, base=None):
    """The PyPI user names (and organization) owning the project; None when there is none."""
    base = (base or os.environ.get("TOOL_CONFORMANCE_PYPI") or "https://pypi.org").rstrip("/")
    try:
        with urllib.request.urlopen(f"{base}/pypi/{name}/json", timeout=30) as response:
            project = json.load(response)
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return None
        raise Refused(f"PyPI's JSON API answered {error.code} for {name}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise Refused(f"PyPI's JSON API could not be read for {name}: {error}") from None
    owners = set()
    ownership = project.get("ownership") if isinstance(project, dict) else None
    if isinstance(ownership, dict):
        owners |= {role.get("user") for role in ownership.get("roles") or [] if isinstance(role, dict)}
        if ownership.get("organization"):
            owners.add(f"organization:{ownership['organization']}")
    try:
        roles = xmlrpc.client.ServerProxy(f"{base}/pypi").package_roles(name)
    except (xmlrpc.client.Error, OSError) as error:
        raise Refused(f"PyPI's package_roles could not be read for {name}: {error}") from None
    owners |= {user for _, user in roles}
    owners.discard(None)
    if not owners:
        raise Refused(f"PyPI has {name} but names no owner of it: who holds it cannot be told")
    return owners


def check(registry, arguments, owners_file=OWNERS):
    """Lines saying, for each name, that it is free or held by the expected owners; Refused for
    the first name held by anyone else or whose owners cannot be told."""
    allowed = expected(registry, owners_file)
    name_of, owners_of = (npm_name, npm_owners) if registry == "npm" else (pypi_name, pypi_owners)
    said = []
    for name in dict.fromkeys(name_of(argument) for argument in arguments):
        owners = owners_of(name)
        if owners is None:
            said.append(f"{registry} {name}: not taken yet (this publish claims it)")
        elif owners - allowed:
            raise Refused(f"{registry} {name} is held by {', '.join(sorted(owners - allowed))}, not only by "
                          f"{', '.join(sorted(allowed))} (packaging/owners.json): refusing to publish under it")
        else:
            said.append(f"{registry} {name}: held by {', '.join(sorted(owners))}")
    return said


def main(argv):
    if len(argv) < 2 or argv[0] not in ("npm", "pypi"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        for line in check(argv[0], argv[1:]):
            print(line)
    except Refused as why:
        print(f"owners: {why}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

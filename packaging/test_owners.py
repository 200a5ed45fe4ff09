"""packaging/owners.py against a fake npm (a script on PATH) and a fake PyPI (a local HTTP server
with the JSON API and XML-RPC's package_roles): a name nobody holds, or held by the expected
owners, passes; any other owner, or an answer that cannot be read, refuses.

    python3 packaging/test_owners.py
"""

import http.server
import io
import json
import os
import sys
import tarfile
import tempfile
import threading
import unittest
import xmlrpc.client

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import owners  # noqa: E402

FAKE_NPM = """#!/bin/sh
# npm view NAME name maintainers --json, answered from $FAKE_NPM_DIR/NAME.json (exit 0), or E404.
[ "$1" = view ] || exit 9
if [ -f "$FAKE_NPM_DIR/$2.json" ]; then cat "$FAKE_NPM_DIR/$2.json"; exit 0; fi
if [ -f "$FAKE_NPM_DIR/$2.fail" ]; then echo '{"error":{"code":"ECONNRESET","summary":"socket hang up"}}'; exit 1; fi
echo '{"error":{"code":"E404","summary":"Not Found"}}'; echo "npm error 404" >&2; exit 1
"""


class FakeNpm(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        bin_dir = os.path.join(self.dir.name, "bin")
        os.mkdir(bin_dir)
        with open(os.path.join(bin_dir, "npm"), "w") as npm:
            npm.write(FAKE_NPM)
        os.chmod(os.path.join(bin_dir, "npm"), 0o755)
        self.environ = dict(os.environ)
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ["PATH"]
        os.environ["FAKE_NPM_DIR"] = self.dir.name
        self.owners_file = self.write("owners.json", {"npm": ["tool-conformance", "second"], "pypi": ["tool-conformance"]})

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.environ)
        self.dir.cleanup()

    def write(self, name, value):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as file:
            file.write(value if isinstance(value, str) else json.dumps(value))
        return path

    def check(self, *names):
        return owners.check("npm", list(names), self.owners_file)

    def test_a_name_nobody_holds_passes(self):
        self.assertEqual(self.check("tool-conformance-linux-x64"),
                         ["npm tool-conformance-linux-x64: not taken yet (this publish claims it)"])

    def test_a_name_the_expected_owners_hold_passes(self):
        self.write("tool-conformance.json", {"name": "tool-conformance", "maintainers": ["tool-conformance <a@b.c>", {"name": "second"}]})
        self.assertEqual(self.check("tool-conformance"), ["npm tool-conformance: held by second, tool-conformance"])

    def test_any_other_owner_refuses(self):
        self.write("tool-conformance-linux-x64.json", {"name": "x", "maintainers": ["tool-conformance <a@b.c>", "squatter <s@q.t>"]})
        with self.assertRaisesRegex(owners.Refused, "held by squatter"):
            self.check("tool-conformance", "tool-conformance-linux-x64")

    def test_a_package_without_maintainers_or_a_failed_lookup_refuses(self):
        self.write("nameless.json", {"name": "nameless"})
        with self.assertRaisesRegex(owners.Refused, "names no maintainers"):
            self.check("nameless")
        self.write("flaky.fail", "")
        with self.assertRaisesRegex(owners.Refused, "ECONNRESET"):
            self.check("flaky")

    def test_no_expected_owners_refuses(self):
        with self.assertRaisesRegex(owners.Refused, "lists no npm owners"):
            owners.check("npm", ["free"], self.write("empty.json", {"npm": []}))

    def test_a_tarball_is_checked_under_its_package_name(self):
        path = os.path.join(self.dir.name, "tool-conformance-linux-x64-1.0.0.tgz")
        manifest = json.dumps({"name": "tool-conformance-linux-x64", "version": "1.0.0"}).encode()
        with tarfile.open(path, "w:gz") as tarball:
            info = tarfile.TarInfo("package/package.json")
            info.size = len(manifest)
            tarball.addfile(info, io.BytesIO(manifest))
        self.write("tool-conformance-linux-x64.json", {"name": "x", "maintainers": ["squatter <s@q.t>"]})
        with self.assertRaisesRegex(owners.Refused, "npm tool-conformance-linux-x64 is held by squatter"):
            self.check(path)


class Pypi(http.server.BaseHTTPRequestHandler):
    """GET /pypi/NAME/json from `projects` (404 when absent, 500 for "broken"); POST /pypi as
    XML-RPC package_roles from `roles`."""

    projects, roles = {}, {}

    def do_GET(self):
        name = self.path.split("/")[2]
        if name == "broken":
            return self.answer(500, b"{}")
        if name not in self.projects:
            return self.answer(404, b'{"message": "Not Found"}')
        self.answer(200, json.dumps(self.projects[name]).encode())

    def do_POST(self):
        params, method = xmlrpc.client.loads(self.rfile.read(int(self.headers["Content-Length"])))
        assert method == "package_roles", method
        self.answer(200, xmlrpc.client.dumps((self.roles.get(params[0], []),), methodresponse=True).encode(), "text/xml")

    def answer(self, status, body, kind="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class FakePypi(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Pypi)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.base = f"http://127.0.0.1:{cls.server.server_address[1]}"

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def setUp(self):
        Pypi.projects, Pypi.roles = {}, {}
        self.dir = tempfile.TemporaryDirectory()
        self.owners_file = os.path.join(self.dir.name, "owners.json")
        with open(self.owners_file, "w") as file:
            json.dump({"pypi": ["tool-conformance"]}, file)
        os.environ["TOOL_CONFORMANCE_PYPI"] = self.base

    def tearDown(self):
        del os.environ["TOOL_CONFORMANCE_PYPI"]
        self.dir.cleanup()

    def check(self, *names):
        return owners.check("pypi", list(names), self.owners_file)

    def test_a_project_nobody_holds_passes_under_its_wheels_name(self):
        self.assertEqual(self.check("wheels/tool_conformance-0.1.0-py3-none-manylinux_2_17_x86_64.whl"),
                         ["pypi tool-conformance: not taken yet (this publish claims it)"])

    def test_a_project_the_expected_owners_hold_passes(self):
        Pypi.projects["tool-conformance"] = {"info": {"name": "tool-conformance"}}
        Pypi.roles["tool-conformance"] = [["Owner", "tool-conformance"]]
        self.assertEqual(self.check("tool-conformance"), ["pypi tool-conformance: held by tool-conformance"])

    def test_another_owner_by_roles_or_by_ownership_refuses(self):
        Pypi.projects["tool-conformance"] = {"info": {}}
        Pypi.roles["tool-conformance"] = [["Owner", "tool-conformance"], ["Maintainer", "squatter"]]
        with self.assertRaisesRegex(owners.Refused, "held by squatter"):
            self.check("tool-conformance")
        Pypi.roles["tool-conformance"] = [["Owner", "tool-conformance"]]
        Pypi.projects["tool-conformance"] = {"info": {}, "ownership": {"organization": "elsewhere", "roles": []}}
        with self.assertRaisesRegex(owners.Refused, "organization:elsewhere"):
            self.check("tool-conformance")

    def test_an_unreadable_answer_or_no_owner_refuses(self):
        with self.assertRaisesRegex(owners.Refused, "answered 500"):
            self.check("broken")
        Pypi.projects["orphan"] = {"info": {}}
        with self.assertRaisesRegex(owners.Refused, "names no owner"):
            self.check("orphan")


if __name__ == "__main__":
    unittest.main()

"""The example Python adapter with one answer made wrong: every rejected call reports that its
handler ran once, which breaks PLAT-162's before-handler clause."""
import json
import subprocess
import sys

adapter = subprocess.Popen([sys.executable, sys.argv[1]], stdout=subprocess.PIPE, text=True)
for line in adapter.stdout:
    message = json.loads(line)
    if message.get("outcome") == "rejected":
        message["handler_calls"] = 1
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
sys.exit(adapter.wait())

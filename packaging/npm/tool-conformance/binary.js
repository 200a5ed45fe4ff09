// The path of the tool-conformance binary that npm installed beside this package: the one of the
// per-platform package (an optional dependency, of which npm installs only the one whose os and
// cpu match), or TOOL_CONFORMANCE_BINARY when it is set.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The per-platform package for this machine, e.g. `tool-conformance-linux-x64`. */
export const platformPackage = (platform = process.platform, arch = process.arch) => `tool-conformance-${platform}-${arch}`;

/** The absolute path of the binary, or an Error saying why there is none. */
export function binaryPath() {
  if (process.env.TOOL_CONFORMANCE_BINARY) return process.env.TOOL_CONFORMANCE_BINARY;
  const name = platformPackage();
  let manifest;
  try {
    manifest = require.resolve(`${name}/package.json`);
  } catch {
    throw new Error(`tool-conformance: no binary for ${process.platform}-${process.arch}: the package ${name} is not installed `
      + '(npm installs it as an optional dependency of tool-conformance; was the install run with --no-optional, '
      + 'or is there no build for this platform?). `cargo install --locked tool-conformance` builds one from source.');
  }
  return join(dirname(manifest), 'bin', process.platform === 'win32' ? 'tool-conformance.exe' : 'tool-conformance');
}

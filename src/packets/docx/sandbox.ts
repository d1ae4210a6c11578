/**
 * The command line that runs LibreOffice without a network and under a memory limit.
 *
 * `bwrap` (bubblewrap, Debian package `bubblewrap`): new network, PID, IPC and UTS
 * namespaces, so no socket reaches any host, loopback included (the namespace's own `lo`
 * has nothing listening); a file system of the system folders read-only, a private
 * `/tmp`, and the conversion's own directory the only place it can write. Filesystem
 * sockets under /run, /tmp or /var are not there to connect to. As root it needs no user
 * namespace; unprivileged it makes one (kernels with unprivileged user namespaces).
 * Killing the outer bwrap ends the namespace's init (`--die-with-parent`), and the kernel
 * ends everything else in the PID namespace with it: no helper outlives a deadline.
 *
 * The memory limit is RLIMIT_AS, set by `sh -c 'ulimit -v'` before exec (no extra tool):
 * it covers bwrap and every process LibreOffice starts.
 */
import path from 'node:path';

export type DocxSandbox = 'bwrap' | 'none';

export interface SandboxCommand {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** Folders LibreOffice reads: the system (read-only), fonts and their cache, its own configuration. */
const READ_ONLY = [
  '/usr',
  '/etc/fonts',
  '/etc/ld.so.cache',
  '/etc/libreoffice',
  '/etc/alternatives',
  '/var/cache/fontconfig',
  '/etc/localtime',
];
/** Debian's merged-/usr links. */
const LINKS: Array<[string, string]> = [
  ['usr/bin', '/bin'],
  ['usr/sbin', '/sbin'],
  ['usr/lib', '/lib'],
  ['usr/lib64', '/lib64'],
];
/** What the conversion keeps of the caller's environment (not its secrets). */
const KEPT_ENV = ['PATH', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TZ'];

export function sandboxCommand(
  sandbox: DocxSandbox,
  o: { bwrap?: string; soffice: string; args: string[]; workDir: string; memoryLimitMb: number },
): SandboxCommand {
  const base: NodeJS.ProcessEnv = { HOME: o.workDir, SAL_USE_VCLPLUGIN: 'svp' };
  let file = o.soffice;
  let args = o.args;
  let env: NodeJS.ProcessEnv = { ...process.env, ...base };
  if (sandbox === 'bwrap') {
    env = {
      ...Object.fromEntries(KEPT_ENV.flatMap((k) => (process.env[k] === undefined ? [] : [[k, process.env[k]]]))),
      ...base,
      TMPDIR: o.workDir,
    };
    const binds = READ_ONLY.flatMap((p) => ['--ro-bind-try', p, p]);
    // An executable outside /usr (a test's stand-in, an /opt install) is made visible too: after the
    // private /tmp, which would hide it, and before the work folder, which may lie inside it.
    const home = path.dirname(path.resolve(o.soffice));
    const exeBind = home.startsWith('/usr/') ? [] : ['--ro-bind', home, home];
    args = [
      '--unshare-net',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-cgroup-try',
      '--die-with-parent',
      '--new-session',
      ...binds,
      ...LINKS.flatMap(([target, link]) => ['--symlink', target, link]),
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      '--tmpfs',
      '/tmp',
      ...exeBind,
      '--bind',
      o.workDir,
      o.workDir,
      '--chdir',
      o.workDir,
      '--',
      o.soffice,
      ...o.args,
    ];
    file = o.bwrap ?? 'bwrap';
  }
  if (o.memoryLimitMb > 0) {
    // $0 is the limit in KiB, "$@" the command: nothing from the request reaches the shell's text.
    args = ['-c', 'ulimit -v "$0" && exec "$@"', String(Math.floor(o.memoryLimitMb * 1024)), file, ...args];
    file = '/bin/sh';
  }
  return { file, args, env };
}

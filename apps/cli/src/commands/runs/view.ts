import { spawn } from 'node:child_process';
import { discoverRoots } from '@ckpt/core';
import { UsageError } from '../../usage-error.js';
import { noRunsError, projectDir } from './project-dir.js';

export interface ViewFlags {
  readonly port?: string;
  readonly host?: string;
  readonly allowRemote?: boolean;
  readonly allowedHost?: readonly string[];
  readonly open?: boolean;
}

function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(cmd, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => process.stderr.write(`ckpt: could not open a browser; visit ${url}\n`));
    child.unref();
  } catch {
    process.stderr.write(`ckpt: could not open a browser; visit ${url}\n`);
  }
}

/** `ckpt view [dir]`: serves the viewer until SIGINT or SIGTERM. Prints the URL on stdout. */
export async function runView(given: string | undefined, flags: ViewFlags): Promise<number> {
  const project = projectDir(given);
  const dir = project.dir;
  const port = Number(flags.port ?? '4173');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${flags.port}"`);
  const host = flags.host ?? '127.0.0.1';
  const allowedHosts = flags.allowedHost ?? [];
  const { isLoopbackHost, startViewer } = await import('@ckpt/viewer');
  const remote = !isLoopbackHost(host);
  if (remote && !flags.allowRemote)
    throw new UsageError(
      `refusing to listen on ${host}: not a loopback address, so other machines could read ${dir}; pass --allow-remote to serve them (the URL then carries an access token)`,
    );
  if (allowedHosts.length > 0 && !remote)
    throw new UsageError(
      '--allowed-host is for a viewer serving other machines (--host <address> --allow-remote)',
    );
  // Finding the runs' folders reads no documents: an empty project is refused before anything listens.
  if (discoverRoots(dir).length === 0) throw noRunsError(project);
  let viewer: Awaited<ReturnType<typeof startViewer>>;
  try {
    viewer = await startViewer({ dir, port, host, allowRemote: remote, allowedHosts });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${host} is in use; try --port 0`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new UsageError(`cannot listen on host "${host}"`);
    if (code === 'EACCES') throw new UsageError(`not allowed to listen on port ${port}`);
    throw e;
  }
  process.stdout.write(`${viewer.url}\n`);
  if (viewer.remote)
    process.stderr.write(
      `ckpt view: warning: listening on ${host}${host === '0.0.0.0' || host === '::' ? ' (every network interface)' : ''}, port ${viewer.port}: anyone who can reach it and has the token in the URL can read ${dir}\n` +
        `ckpt view: answering Host names: ${viewer.allowedHosts?.join(', ')} (add more with --allowed-host)\n`,
    );
  process.stderr.write(`ckpt view: serving ${dir} read-only at ${viewer.url} (Ctrl-C stops)\n`);
  if (flags.open) openBrowser(viewer.url);
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void viewer.close().then(done, done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}

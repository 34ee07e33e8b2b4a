import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { cliPath, repoRoot, runCli } from './run-cli.js';

const sample = 'test-fixtures/sample-project';

function httpGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((done, fail) => {
    const u = new URL(url);
    const req = request(
      { host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, headers },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      },
    );
    req.on('error', fail);
    req.end();
  });
}

describe('ckpt view on an address other than loopback', () => {
  it('should refuse it without --allow-remote (usage error, nothing listening)', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20']) {
      const r = runCli(['view', sample, '--host', host, '--port', '0']);
      expect(r.code, host).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`refusing to listen on ${host}`);
      expect(r.stderr).toContain('--allow-remote');
    }
    const r = runCli(['view', sample, '--port', '0', '--allowed-host', 'devbox.lan']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--allowed-host');
  });

  it('should serve with --allow-remote: a warning naming the address, a token in the URL, the Host allow-list on', async () => {
    const child = spawn(
      process.execPath,
      [
        cliPath,
        'view',
        sample,
        '--host',
        '0.0.0.0',
        '--port',
        '0',
        '--allow-remote',
        '--allowed-host',
        'devbox.lan',
      ],
      { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' } },
    );
    try {
      let out = '';
      let err = '';
      child.stderr.on('data', (d) => {
        err += String(d);
      });
      const url = await new Promise<string>((done, fail) => {
        child.stdout.on('data', (d) => {
          out += String(d);
          if (out.includes('\n')) done(out.split('\n')[0]!);
        });
        child.on('exit', (code) => fail(new Error(`exited ${code}: ${err}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
      // stderr is another pipe: wait for its last line.
      while (!err.includes('Ctrl-C stops')) await new Promise((r) => setTimeout(r, 20));
      expect(err).toContain('warning: listening on 0.0.0.0 (every network interface)');
      expect(err).toContain('devbox.lan');
      const plain = url.replace(/\?token=.*$/, '');
      expect(await httpGet(url, { host: 'devbox.lan' })).toBe(303);
      expect(await httpGet(plain, { host: 'devbox.lan' })).toBe(401);
      expect(await httpGet(`${plain}?token=wrong`, { host: 'devbox.lan' })).toBe(403);
      expect(await httpGet(url, { host: 'evil.example' })).toBe(421);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

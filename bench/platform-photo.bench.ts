/**
 * photo.addPhoto end to end (multipart POST over loopback to a platform process: token
 * check, type detection, seven sizes, files written, rows inserted) against sharp alone
 * producing the same seven files in this process. Target: ratio (sharp time / upload time)
 * >= 0.7. Also the platform process's peak RSS while it takes 8 uploads at once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@repo/server-kit/testing';
import sharp from 'sharp';
import { createContext, loadPlatformConfig } from 'social-platform';
import { medianMs, report } from './lib/harness.ts';

const CLI = fileURLToPath(new URL('../apps/social-platform/bin/social-platform.js', import.meta.url));
const SIZES = [75, 100, 150, 240, 500, 1024];
const RUNS = Number(process.env.BENCH_PHOTO_RUNS ?? 5);

/** A 12 MP camera-like JPEG: smooth gradients with sensor-like noise. */
async function twelveMegapixelJpeg(): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 24 },
    },
  })
    .blur(1.2)
    .toBuffer();
  return sharp(noise, { raw: { width: 4000, height: 3000, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The baseline: sharp making the original and six sizes, the same settings, in memory. */
function sharpAlone(input: Buffer): Promise<Buffer[]> {
  const options = { limitInputPixels: 50_000_000, failOn: 'warning', autoOrient: true } as const;
  const jpeg = { quality: 82, progressive: true };
  return Promise.all([
    sharp(input, options).jpeg(jpeg).toBuffer(),
    ...SIZES.map((side) =>
      sharp(input, options)
        .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
        .jpeg(jpeg)
        .toBuffer(),
    ),
  ]);
}

/** Starts `social-platform serve` on a free port and resolves with its address once it listens. */
async function startPlatform(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const match = /Social platform on (http:\/\/[^ ]+)/.exec(line);
    if (match) return { child, url: match[1]! };
  }
  throw new Error('The platform exited before listening');
}

/** Peak resident set size of a process, from Linux's VmHWM; undefined elsewhere. */
function peakRssMb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

const temp = tempDir('bench-photo');
const env = {
  ...process.env,
  DATA_DIR: temp.dir,
  DATABASE_URL: '',
  PORT: '0',
  LOG_LEVEL: 'info',
  API_RATE_LIMIT: '1000000',
};
const setup = await createContext(loadPlatformConfig(env));
const user = await setup.users.create({
  userName: 'photographer',
  fullName: 'Bench Photographer',
  email: 'photographer@example.com',
  password: 'bench-password',
});
const application = await setup.apps.create({
  name: 'Bench',
  canvasUrl: 'https://bench.test/',
  ownerId: user.id,
  permissions: ['photos_upload'],
});
await setup.grants.grant(application.id, user.id, ['photos_upload']);
const key = await setup.appAuth.issueAppKey(application.id, user.id);
await setup.close();

const photo = await twelveMegapixelJpeg();
const { child, url } = await startPlatform(env);
try {
  const { token } = (await (await fetch(`${url}/token.php?key=${key}`)).json()) as { token: string };
  const startupPeak = peakRssMb(child.pid!);
  const upload = async () => {
    const form = new FormData();
    form.append('photo_name', 'Bench');
    form.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'bench.jpg');
    const response = await fetch(`${url}/api.php?token=${token}&method=photo.addPhoto`, { method: 'POST', body: form });
    if (response.status !== 200) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };

  const baselineMs = await medianMs(RUNS, () => sharpAlone(photo));
  const uploadMs = await medianMs(RUNS, upload);
  const concurrentStart = performance.now();
  await Promise.all(Array.from({ length: 8 }, upload));
  const concurrentMs = performance.now() - concurrentStart;
  const peak = peakRssMb(child.pid!);

  report({
    name: 'platform-photo-upload-12mp',
    ratio: baselineMs / uploadMs,
    target: '>= 0.7',
    details: {
      jpeg_mb: photo.length / 1_048_576,
      sharp_alone_ms: baselineMs,
      upload_ms: uploadMs,
      eight_concurrent_ms: concurrentMs,
      ...(peak === undefined || startupPeak === undefined
        ? {}
        : { platform_rss_at_start_mb: startupPeak, platform_peak_rss_8_concurrent_mb: peak }),
    },
  });
} finally {
  child.kill('SIGTERM');
  await once(child, 'exit');
  temp.remove();
}

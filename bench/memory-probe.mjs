// Preloaded into the server by bench/soak.ts (`node --import bench/memory-probe.mjs …`): writes
// the process's own memory figures to PARLEY_MEMORY_PROBE_FILE once a second. Bench-only.
import fs from "node:fs";

const file = process.env.PARLEY_MEMORY_PROBE_FILE;
if (file) {
  const write = () => {
    const usage = process.memoryUsage();
    // Written aside and renamed, so a reader never sees half a file.
    fs.writeFileSync(
      `${file}.tmp`,
      JSON.stringify({ at: Date.now(), rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external, arrayBuffers: usage.arrayBuffers }),
    );
    fs.renameSync(`${file}.tmp`, file);
  };
  write();
  setInterval(write, 1000).unref();
}

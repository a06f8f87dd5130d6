// Child process for the crash scenarios: runs lock call texts (rendered by the parent from the fix
// templates) against Redis one step at a time, reporting after each, so the parent can SIGKILL it at
// an exact point between two commands. Plain CommonJS so it starts fast, without a TypeScript loader.
'use strict';

// Each child loads only its own client library: a child's start-up is most of a crash scenario's time.
async function connect(job) {
  if (job.dialect === 'ioredis') {
    const { Redis } = require('ioredis');
    const client = new Redis({ host: job.host, port: job.port, lazyConnect: true, maxRetriesPerRequest: 0 });
    await client.connect();
    return client;
  }
  const { createClient } = require('redis');
  const client = createClient({ socket: { host: job.host, port: job.port, reconnectStrategy: false } });
  await client.connect();
  return client;
}

function nextMessage() {
  return new Promise((resolve) => process.once('message', resolve));
}

async function main() {
  const job = JSON.parse(process.argv[2]);
  const client = await connect(job);
  for (const [step, text] of job.steps.entries()) {
    // The same evaluation as test/proofs/fixed-code.ts: the text is a call over redis, key, token, ttl.
    const call = new Function('redis', 'key', 'token', 'ttl', `return ${text};`);
    const reply = await call(client, job.key, job.token, job.ttlMs);
    process.send({ step, reply });
    await nextMessage();
  }
  process.exit(0);
}

// The parent going away ends the child too: it must never outlive the proof run.
process.on('disconnect', () => process.exit(1));
main().catch((error) => {
  console.error(error);
  process.exit(2);
});

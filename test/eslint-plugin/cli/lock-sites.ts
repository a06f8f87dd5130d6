// Generated files with many lock sites, for the CLI's size and scaling checks: each site acquires
// with SET NX PX, works in try/finally and releases with a plain DEL (one no-unsafe-release finding,
// with its suggestion). Generated in the test, never committed.

/** Where the sites sit: one function each, all methods of one class, or functions inside one IIFE. */
export type LockSiteShape = 'functions' | 'class' | 'iife';

function siteBody(index: number, indent: string): string {
  return [
    `${indent}  const token = crypto.randomUUID();`,
    `${indent}  if (!(await redis.set('lock:job:${index}', token, 'NX', 'PX', 30000))) return;`,
    `${indent}  try {`,
    `${indent}    await work();`,
    `${indent}  } finally {`,
    `${indent}    await redis.del('lock:job:${index}');`,
    `${indent}  }`,
  ].join('\n');
}

/** An ES module (`functions`, `class`) or a CommonJS script (`iife`) holding `count` lock sites. */
export function lockSitesSource(shape: LockSiteShape, count: number): string {
  const indices = Array.from({ length: count }, (_, index) => index);
  switch (shape) {
    case 'functions':
      return `import Redis from 'ioredis';\n\nconst redis = new Redis();\n\n${indices.map((index) => `export async function job${index}(work) {\n${siteBody(index, '')}\n}\n`).join('\n')}`;
    case 'class':
      return `import Redis from 'ioredis';\n\nconst redis = new Redis();\n\nexport class Jobs {\n${indices.map((index) => `  async job${index}(work) {\n${siteBody(index, '  ')}\n  }\n`).join('\n')}}\n`;
    case 'iife':
      return `const Redis = require('ioredis');\n\n(function () {\n  const redis = new Redis();\n\n${indices.map((index) => `  async function job${index}(work) {\n${siteBody(index, '  ')}\n  }\n`).join('\n')}\n  module.exports = { ${indices.map((index) => `job${index}`).join(', ')} };\n})();\n`;
  }
}

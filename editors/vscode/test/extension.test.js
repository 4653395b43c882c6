// Activation and settings of the compiled extension (out/extension.js), run by
// `npm test` (node's own test runner, no VS Code download): `vscode` and the language
// client are stand-ins that record what the extension asks of them.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const Module = require('node:module');
const path = require('node:path');

const manifest = require('../package.json');

/** A fresh world: settings, recorded calls, and the extension loaded against it. */
function world(settings) {
  const rec = { clients: [], commands: {}, configListeners: [], errors: [] };
  const vscode = {
    workspace: {
      getConfiguration(section) {
        assert.equal(section, 'dynalint');
        return { get: (key) => settings[key] };
      },
      onDidChangeConfiguration(listener) {
        rec.configListeners.push(listener);
        return { dispose() {} };
      },
    },
    commands: {
      registerCommand(id, fn) {
        rec.commands[id] = fn;
        return { dispose() {} };
      },
    },
    window: {
      showErrorMessage(message) {
        rec.errors.push(message);
        return Promise.resolve(undefined);
      },
    },
  };
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions, started: false, stopped: false });
      rec.clients.push(this);
    }
    async start() {
      if (rec.failStart) {
        throw new Error('spawn ENOENT');
      }
      this.started = true;
    }
    async stop() {
      this.stopped = true;
    }
  }
  const client = { LanguageClient, TransportKind: { stdio: 0, ipc: 1 } };
  const out = path.join(__dirname, '..', 'out', 'extension.js');
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    if (request === 'vscode') return vscode;
    if (request === 'vscode-languageclient/node') return client;
    return load.call(this, request, parent, isMain);
  };
  delete require.cache[out];
  try {
    rec.extension = require(out);
  } finally {
    Module._load = load;
  }
  rec.context = { subscriptions: [] };
  return rec;
}

test('activation starts `dynalint lsp` for Rust files and dynalint.toml', async () => {
  const w = world({});
  await w.extension.activate(w.context);
  assert.equal(w.clients.length, 1);
  const c = w.clients[0];
  assert.ok(c.started);
  assert.equal(c.serverOptions.command, 'dynalint', 'the default finds it on PATH');
  assert.deepEqual(c.serverOptions.args, ['lsp']);
  // A `transport` makes the real client append `--stdio`, which `dynalint lsp` rejects.
  assert.equal(c.serverOptions.transport, undefined);
  assert.deepEqual(c.clientOptions.documentSelector, [
    { scheme: 'file', language: 'rust' },
    { scheme: 'file', pattern: '**/dynalint.toml' },
  ]);
  assert.equal(w.context.subscriptions.length, 2);
  await w.extension.deactivate();
  assert.ok(c.stopped);
});

test('settings choose the binary and its environment', async () => {
  const w = world({
    'server.path': '  /opt/dynalint/bin/dynalint ',
    'server.extraEnv': { DYNALINT_LSP_DEBOUNCE_MS: '50' },
  });
  await w.extension.activate(w.context);
  const o = w.clients[0].serverOptions;
  assert.equal(o.command, '/opt/dynalint/bin/dynalint');
  assert.equal(o.options.env.DYNALINT_LSP_DEBOUNCE_MS, '50');
  assert.equal(o.options.env.PATH, process.env.PATH, 'the rest of the environment is kept');
});

test('changing a server setting restarts the server; other settings do not', async () => {
  const settings = { 'server.path': 'dynalint' };
  const w = world(settings);
  await w.extension.activate(w.context);
  settings['server.path'] = '/usr/local/bin/dynalint';
  w.configListeners[0]({ affectsConfiguration: (s) => s === 'editor.fontSize' });
  assert.equal(w.clients.length, 1);
  w.configListeners[0]({ affectsConfiguration: (s) => s === 'dynalint.server' });
  await new Promise((r) => setImmediate(r));
  assert.equal(w.clients.length, 2);
  assert.ok(w.clients[0].stopped);
  assert.equal(w.clients[1].serverOptions.command, '/usr/local/bin/dynalint');
  await w.commands['dynalint.restartServer']();
  assert.equal(w.clients.length, 3, 'the restart command starts a new client');
});

test('a server that cannot start is reported with the setting to fix', async () => {
  const w = world({ 'server.path': '/nowhere/dynalint' });
  w.failStart = true;
  await w.extension.activate(w.context);
  assert.equal(w.errors.length, 1);
  assert.match(w.errors[0], /\/nowhere\/dynalint lsp/);
  assert.match(w.errors[0], /dynalint\.server\.path/);
});

test('the manifest contributes what the code uses', () => {
  const props = Object.keys(manifest.contributes.configuration.properties);
  for (const key of ['dynalint.server.path', 'dynalint.server.extraEnv', 'dynalint.trace.server']) {
    assert.ok(props.includes(key), key);
  }
  const w = world({});
  return w.extension.activate(w.context).then(() => {
    const contributed = manifest.contributes.commands.map((c) => c.command);
    assert.deepEqual(Object.keys(w.commands), contributed);
    assert.ok(manifest.activationEvents.includes('onLanguage:rust'));
    assert.ok(manifest.activationEvents.includes('workspaceContains:**/dynalint.toml'));
    assert.equal(manifest.main, './out/extension.js');
  });
});

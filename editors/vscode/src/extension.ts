// The dynalint extension: starts `dynalint lsp` for Rust files and dynalint.toml.
// All analysis lives in the server; this file only starts, restarts and configures it.

import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

function serverOptions(): ServerOptions {
  const config = vscode.workspace.getConfiguration('dynalint');
  const command = config.get<string>('server.path')?.trim() || 'dynalint';
  const extraEnv = config.get<Record<string, string>>('server.extraEnv') ?? {};
  // No `transport`: with `TransportKind.stdio` the client appends `--stdio` to the
  // arguments, which `dynalint lsp` rejects; left out, the client still talks over
  // stdio and runs exactly `<path> lsp`.
  return {
    command,
    args: ['lsp'],
    options: { env: { ...process.env, ...extraEnv } },
  };
}

function clientOptions(): LanguageClientOptions {
  return {
    // The server finds each file's project (a dynalint.toml's folder, else the cargo
    // workspace's, its model inferred) and registers its own file watchers for .rs,
    // Cargo.toml, template and dynalint.toml changes on disk.
    documentSelector: [
      { scheme: 'file', language: 'rust' },
      { scheme: 'file', pattern: '**/dynalint.toml' },
    ],
  };
}

async function start(): Promise<void> {
  client = new LanguageClient('dynalint', 'dynalint', serverOptions(), clientOptions());
  try {
    await client.start();
  } catch (err) {
    const path = vscode.workspace.getConfiguration('dynalint').get<string>('server.path');
    void vscode.window.showErrorMessage(
      `dynalint: could not start \`${path} lsp\` (${String(err)}). ` +
        'Install dynalint or set "dynalint.server.path".',
    );
  }
}

async function restart(): Promise<void> {
  if (client) {
    await client.stop().catch(() => undefined);
    client = undefined;
  }
  await start();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand('dynalint.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('dynalint.server')) {
        void restart();
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  if (client) {
    await client.stop();
  }
}

#!/usr/bin/env node
// `npm run demo`: a full round trip against the embedded sandbox, through the real binary:
// start a sandbox (its account has a few days of trades), trust it as a person would (its
// treasury, then its sell wording once read), buy, look at holdings and positions, sell half,
// read activity, profit and loss and points, stop the sandbox. Nothing here touches your own config file or wallet.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wrapWords } from '../dist/io/word-wrap.js';
import { commandLines } from '../dist/io/command-line.js';

const bin = fileURLToPath(new URL('../bin/trader.js', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'trader-demo-'));
const bold = (s) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\u001b[1m${s}\u001b[0m` : s);
// Every line the demo writes follows the tool's one wrapping rule: broken between words, never
// inside a value (a mint, a command), to the terminal's width (80 when piped).
const columns = Math.max(40, process.stdout.columns ?? 80);
const say = (text) => console.log(wrapWords(text, columns));

function startSandbox() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const env = {};
    child.stdout.on('data', (chunk) => {
      out += chunk;
      for (const m of out.matchAll(/^export (TRADER_[A-Z_]+)=(.*)$/gm)) env[m[1]] = m[2].replace(/^'(.*)'$/, '$1');
      const treasury = /^# .*treasury (\w+)/m.exec(out)?.[1];
      if (env.TRADER_BASE_URL && env.TRADER_API_KEY && env.TRADER_KEYPAIR && treasury)
        resolve({ child, env, treasury });
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
    child.on('error', reject);
  });
}

/** Runs one step on this terminal; `readStderr`: keep its stderr to read (then shown after its stdout). */
function step(title, args, env, expected = 0, readStderr = false) {
  say(`\n${bold(`▶ ${title}`)}`);
  // The command as a shell takes it, laid out with ` \` continuations: never broken inside a word.
  console.log(`  $ ${commandLines(`trader ${args.join(' ')}`, columns - 4).replace(/\n/g, '\n    ')}`);
  // The tool's own streams, so its lines come in the order it writes them, wrapped for this terminal.
  const run = spawnSync(process.execPath, [bin, ...args], {
    env,
    stdio: ['ignore', 'inherit', readStderr ? 'pipe' : 'inherit'],
    encoding: 'utf8',
  });
  if (readStderr) process.stderr.write(run.stderr);
  if (run.status !== expected) throw new Error(`trader ${args.join(' ')} exited with ${run.status}`);
  return run;
}

const { child, env: sandboxEnv, treasury } = await startSandbox();
const env = { ...process.env, ...sandboxEnv, TRADER_CONFIG: join(scratch, 'config.json') };
try {
  // The simulated chain confirms and swaps at once: the demo shows every step without waiting on them.
  await fetch(`${sandboxEnv.TRADER_BASE_URL}/_sandbox/delays`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ confirmSeconds: 0, swapSeconds: 0, payoutSeconds: 0, refundSeconds: 0 }),
  });
  const tokens = await (await fetch(`${sandboxEnv.TRADER_BASE_URL}/_sandbox/tokens`)).json();
  const token = (tokens.data ?? tokens)[0];
  say(bold('A sandbox service is running on this machine with an account, a wallet and a few days of trades.'));
  say(`It trades simulated tokens; we will buy some ${token.symbol} (${token.mint}), then sell half.`);
  step('Who am I? The account and the wallet that signs', ['me'], env);
  step(
    "Trust the service's deposit address, as its operator publishes it (the sandbox prints it): only a person pins it",
    ['config', 'trust', 'accept-treasury', treasury],
    env,
  );
  step(
    `Buy 0.5 SOL of ${token.symbol}: the tool checks the deposit transaction, signs it, follows the trade`,
    ['buy', token.mint, '0.5sol', '--yes'],
    env,
  );
  step('What the service now holds for us', ['holdings'], env);
  step('The positions: the one the buy opened on top', ['positions'], env);
  const dry = step(
    `A dry run of the sell: no wording of this service is approved yet, so it is refused, naming the command that approves it`,
    ['sell', token.mint, '50%', '--dry-run', '--json'],
    env,
    6,
    true,
  );
  const { error } = JSON.parse(dry.stderr.trim().split('\n').at(-1));
  step(
    'A person reads the wording (each ⟦…⟧ a slot the tool fills with the facts of a sell) and approves it',
    error.command.split(' ').slice(1),
    env,
  );
  // By its mint: a symbol names a mint only by a person's word (an unattended buy binds none).
  step(
    `Sell half of the ${token.symbol}: the message is the approved wording written with this sell's facts, so it is signed`,
    ['sell', token.mint, '50%', '--yes'],
    env,
  );
  step('Everything that happened, newest first', ['activity'], env);
  step('Where we stand: profit and loss per token (average cost)', ['pnl'], env);
  step('Points earned for the volume', ['points'], env);
  // The last line is a command that works as printed, from this folder, in a fresh shell.
  say(
    `\n${bold('Done.')} Try it yourself: the command below, run in this folder, starts a sandbox in the background, ` +
      'returns once it listens and sets its variables in your shell; then `node bin/trader.js buy WOOF 0.1sol`, and ' +
      '`node bin/trader.js sandbox stop` when you are done (after `npm link`, `trader` alone is enough, from any folder):',
  );
  console.log('eval "$(node bin/trader.js sandbox --background)"');
} finally {
  // The sandbox removes the keypair file it generated once it has stopped: wait for that.
  const stopped = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await stopped;
  rmSync(scratch, { recursive: true, force: true });
}

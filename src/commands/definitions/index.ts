// Every command, in the order `trader --help` lists them: program.ts builds the program from
// this list, and shell completion reads it.
import type { AnyCommand } from '../definition.js';
import { activity } from './activity.js';
import { buy } from './buy.js';
import { cancel } from './cancel.js';
import { completion } from './completion.js';
import { config } from './config.js';
import { holdings } from './holdings.js';
import { me } from './me.js';
import { pnl } from './pnl.js';
import { points } from './points.js';
import { positions } from './positions.js';
import { sandbox } from './sandbox.js';
import { sell } from './sell.js';
import { trades } from './trades.js';

export const COMMANDS: readonly AnyCommand[] = [buy, sell, cancel, trades, positions, activity, holdings, pnl, me, points, config, sandbox, completion];

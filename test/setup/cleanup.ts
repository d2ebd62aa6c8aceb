// Registered before every test file: its temp folders go once the file's own afterAll hooks
// have run (hooks run in reverse order, so this one is last).
import { afterAll } from 'vitest';
import { removeTempDirs } from '../helpers/temp.js';

afterAll(() => removeTempDirs());

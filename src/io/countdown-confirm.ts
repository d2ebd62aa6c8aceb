// A yes/no question that counts down: the time left to answer stands before it and is redrawn
// every second, so what the review said ("52s left") stays true while the person reads. Built
// on @inquirer/core (what @inquirer/prompts' own confirm is made of); loaded with the prompt.
import { createPrompt, isEnterKey, makeTheme, useEffect, useKeypress, usePrefix, useState } from '@inquirer/core';

export interface CountdownConfirmConfig {
  message: string;
  default: boolean;
  /** What stands before the question now (`52s left ·`), or '' for none; asked at every redraw. */
  before(): string;
}

/** Yes/no with a countdown before the question; Enter alone takes the default. */
export const countdownConfirm = createPrompt<boolean, CountdownConfirmConfig>((config, done) => {
  const [status, setStatus] = useState<'idle' | 'done'>('idle');
  const [value, setValue] = useState('');
  const [, setTick] = useState(0);
  const theme = makeTheme({});
  const prefix = usePrefix({ status, theme });
  useEffect(() => {
    // A new value each second: a redraw, which asks `before` again (the time left is the context clock's).
    let ticks = 0;
    const timer = setInterval(() => setTick(++ticks), 1000);
    return () => clearInterval(timer);
  }, []);
  useKeypress((key, rl) => {
    if (status !== 'idle') return;
    if (isEnterKey(key)) {
      const answer = /^(y|yes)$/i.test(value.trim()) ? true : /^(n|no)$/i.test(value.trim()) ? false : config.default;
      setValue(answer ? 'Yes' : 'No');
      setStatus('done');
      done(answer);
    } else setValue(rl.line);
  });
  const message = theme.style.message(config.message, status);
  if (status === 'done') return `${prefix} ${message} ${theme.style.answer(value)}`;
  const before = config.before();
  return `${prefix} ${before ? `${before} · ` : ''}${message} ${theme.style.defaultAnswer(config.default ? 'Y/n' : 'y/N')} ${value}`;
});

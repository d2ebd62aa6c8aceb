// Every form a secret key or seed phrase may be written in, for the tests that hand each one
// over where only its source belongs and check it is refused and echoed nowhere.
import bs58 from 'bs58';

/** The forms of one 64-byte secret key (and a seed phrase), by name. */
export function keyForms(secret: Uint8Array): Record<string, string> {
  const seed = secret.subarray(0, 32);
  const b58 = bs58.encode(secret);
  const hex = Buffer.from(secret).toString('hex');
  const phrase = 'abandon ability able about above absent absorb abstract absurd abuse access accident';
  return {
    'JSON array': JSON.stringify([...secret]),
    'JSON array, spaced over lines': `[\n  ${[...secret].join(',\n  ')}\n]`,
    'hex of 64 bytes': hex,
    'HEX of 64 bytes': hex.toUpperCase(),
    'hex with colons': hex.match(/../g)!.join(':'),
    'hex as 0x bytes': [...secret].map((b) => `0x${b.toString(16).padStart(2, '0')}`).join(', '),
    'hex of the 32-byte seed': hex.slice(0, 64),
    'hex one digit short': hex.slice(1),
    'base58 of 64 bytes': b58,
    'base58 one character too many': `${b58}z`,
    'base58 one character short': b58.slice(0, -1),
    'base58 of the 32-byte seed': bs58.encode(seed),
    'base58 in groups of 4': b58.match(/.{1,4}/g)!.join(' '),
    'base64 of 64 bytes': Buffer.from(secret).toString('base64'),
    'base64url of the seed': Buffer.from(seed).toString('base64url'),
    'seed phrase of 12 words': phrase,
    'seed phrase of 24 words': `${phrase} ${phrase}`,
    'SEED PHRASE IN CAPITALS': phrase.toUpperCase(),
    'seed phrase, comma-separated': phrase.replaceAll(' ', ','),
    'seed phrase, dashes': phrase.replaceAll(' ', '-'),
    'seed phrase, numbered lines': phrase
      .split(' ')
      .map((w, i) => `${i + 1}. ${w}`)
      .join('\n'),
    'seed phrase, one word missing': phrase.split(' ').slice(1).join(' '),
  };
}

/** The first 8-character piece of `secret` found in `text`, letters and digits only and case folded (so a reformatted echo counts), or null. */
export function pieceOf(text: string, secret: string): string | null {
  const flat = text.replace(/[^0-9a-z]/gi, '').toLowerCase();
  const s = secret.replace(/[^0-9a-z]/gi, '').toLowerCase();
  for (let i = 0; i + 8 <= s.length; i++) if (flat.includes(s.slice(i, i + 8))) return s.slice(i, i + 8);
  return null;
}

// A small, strict decoder of the Solana wire format (legacy and v0 transactions and messages).
//
// Why not @solana/web3.js `VersionedTransaction.deserialize`: it reads what it needs and ignores
// bytes left over, so a payload with trailing garbage decodes "fine"; and it throws untyped
// errors on short input. We need the opposite: a decode that consumes every byte exactly (so
// "this text decodes as a transaction message" is a precise test, and the bytes we inspect are
// the bytes we sign), canonical compact-u16 lengths only, and a clear reason on failure.
//
// The decoder checks structure only (lengths, version, index ranges are left to the caller): it
// is used both to inspect deposits, where the inspection applies the semantic rules itself, and
// to make sure a sell message is not a transaction, where a looser "does it parse" is the safer
// test.

import bs58 from 'bs58';

export const PUBLIC_KEY_LENGTH = 32;
export const SIGNATURE_LENGTH = 64;

export interface MessageHeader {
  numRequiredSignatures: number;
  numReadonlySignedAccounts: number;
  numReadonlyUnsignedAccounts: number;
}

export interface CompiledInstruction {
  programIdIndex: number;
  accountIndexes: number[];
  data: Uint8Array;
}

export interface AddressTableLookup {
  accountKey: string;
  writableIndexes: number[];
  readonlyIndexes: number[];
}

export interface DecodedMessage {
  version: 'legacy' | 0;
  header: MessageHeader;
  /** Account keys listed in the message, base58. */
  staticAccountKeys: string[];
  /** Base58. */
  recentBlockhash: string;
  instructions: CompiledInstruction[];
  /** Always empty for legacy messages. */
  addressTableLookups: AddressTableLookup[];
}

export interface DecodedTransaction {
  signatures: Uint8Array[];
  message: DecodedMessage;
  /** The exact message bytes: what a signature signs. */
  messageBytes: Uint8Array;
  /** Byte offset of the first signature in the wire transaction (after the count). */
  signaturesOffset: number;
}

/** Thrown when bytes are not a well-formed transaction or message; the message says where. */
export class DecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecodeError';
  }
}

class Reader {
  offset = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  u8(what: string): number {
    if (this.remaining < 1) throw new DecodeError(`truncated: ${what} missing at byte ${this.offset}`);
    return this.bytes[this.offset++]!;
  }

  take(n: number, what: string): Uint8Array {
    if (this.remaining < n) {
      throw new DecodeError(`truncated: ${what} needs ${n} bytes at byte ${this.offset}, ${this.remaining} left`);
    }
    const out = this.bytes.slice(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  /** Solana's short_vec length: 1–3 bytes, 7 bits each, canonical (no redundant zero bytes), ≤ 0xffff. */
  compactU16(what: string): number {
    const start = this.offset;
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const byte = this.u8(what);
      value |= (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) === 0) {
        if (i > 0 && byte === 0) throw new DecodeError(`non-canonical length for ${what} at byte ${start}`);
        if (i === 2 && byte > 0x03) throw new DecodeError(`length for ${what} exceeds 65535 at byte ${start}`);
        return value;
      }
    }
    throw new DecodeError(`length for ${what} is longer than 3 bytes at byte ${start}`);
  }

  u8Array(what: string): number[] {
    const n = this.compactU16(`${what} count`);
    return Array.from(this.take(n, what));
  }
}

function readMessage(r: Reader): DecodedMessage {
  const first = r.u8('message header');
  let version: 'legacy' | 0 = 'legacy';
  let numRequiredSignatures = first;
  if (first & 0x80) {
    const v = first & 0x7f;
    if (v !== 0) throw new DecodeError(`unsupported message version ${v}`);
    version = 0;
    numRequiredSignatures = r.u8('message header');
  }
  const header: MessageHeader = {
    numRequiredSignatures,
    numReadonlySignedAccounts: r.u8('message header'),
    numReadonlyUnsignedAccounts: r.u8('message header'),
  };
  const keyCount = r.compactU16('account key count');
  const staticAccountKeys: string[] = [];
  for (let i = 0; i < keyCount; i++) staticAccountKeys.push(bs58.encode(r.take(PUBLIC_KEY_LENGTH, `account key ${i}`)));
  const recentBlockhash = bs58.encode(r.take(32, 'recent blockhash'));
  const ixCount = r.compactU16('instruction count');
  const instructions: CompiledInstruction[] = [];
  for (let i = 0; i < ixCount; i++) {
    const programIdIndex = r.u8(`instruction ${i} program index`);
    const accountIndexes = r.u8Array(`instruction ${i} accounts`);
    const dataLength = r.compactU16(`instruction ${i} data length`);
    instructions.push({ programIdIndex, accountIndexes, data: r.take(dataLength, `instruction ${i} data`) });
  }
  const addressTableLookups: AddressTableLookup[] = [];
  if (version === 0) {
    const lookupCount = r.compactU16('address table lookup count');
    for (let i = 0; i < lookupCount; i++) {
      addressTableLookups.push({
        accountKey: bs58.encode(r.take(PUBLIC_KEY_LENGTH, `address table ${i}`)),
        writableIndexes: r.u8Array(`address table ${i} writable indexes`),
        readonlyIndexes: r.u8Array(`address table ${i} readonly indexes`),
      });
    }
  }
  return { version, header, staticAccountKeys, recentBlockhash, instructions, addressTableLookups };
}

function expectEnd(r: Reader): void {
  if (r.remaining !== 0) throw new DecodeError(`${r.remaining} unexpected trailing bytes at byte ${r.offset}`);
}

/** Decodes a bare legacy or v0 message that must span exactly `bytes`. Throws DecodeError. */
export function decodeMessage(bytes: Uint8Array): DecodedMessage {
  const r = new Reader(bytes);
  const message = readMessage(r);
  expectEnd(r);
  return message;
}

/** Decodes a wire transaction (signatures then message) that must span exactly `bytes`. Throws DecodeError. */
export function decodeTransaction(bytes: Uint8Array): DecodedTransaction {
  const r = new Reader(bytes);
  const count = r.compactU16('signature count');
  const signaturesOffset = r.offset;
  const signatures: Uint8Array[] = [];
  for (let i = 0; i < count; i++) signatures.push(r.take(SIGNATURE_LENGTH, `signature ${i}`));
  const messageStart = r.offset;
  const message = readMessage(r);
  expectEnd(r);
  return { signatures, message, messageBytes: bytes.slice(messageStart), signaturesOffset };
}

/** True when `bytes` decode exactly as a legacy or v0 message, or as a whole wire transaction. */
export function looksLikeTransaction(bytes: Uint8Array): boolean {
  for (const decode of [decodeMessage, decodeTransaction]) {
    try {
      decode(bytes);
      return true;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
    }
  }
  return false;
}

/** Whether static account `index` is a signer, per the header. */
export function isSigner(message: DecodedMessage, index: number): boolean {
  return index < message.header.numRequiredSignatures;
}

/** Whether static account `index` is writable, per the header. */
export function isWritable(message: DecodedMessage, index: number): boolean {
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = message.header;
  if (index < numRequiredSignatures) return index < numRequiredSignatures - numReadonlySignedAccounts;
  return index < message.staticAccountKeys.length - numReadonlyUnsignedAccounts;
}

/**
 * Strict base64 (standard alphabet, padded, no whitespace): Buffer.from(…, 'base64') silently
 * skips invalid characters, which would let us inspect something other than what we were sent.
 * Throws DecodeError.
 */
export function decodeBase64Strict(text: string): Uint8Array {
  if (typeof text !== 'string' || text.length === 0) throw new DecodeError('empty base64');
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new DecodeError('not valid base64');
  const bytes = Buffer.from(text, 'base64');
  if (bytes.toString('base64') !== text) throw new DecodeError('not canonical base64');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

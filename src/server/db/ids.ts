// Record ids: 64-bit, time-ordered (so the newest records sort last by id), unique across processes
// without coordination: 41 bits of milliseconds, 10 random bits per process, 12 bits of sequence.
// They travel as strings, like the platform's Long ids.
import { randomInt } from 'node:crypto';

const EPOCH = 1704067200000n; // 2024-01-01T00:00:00Z
const worker = BigInt(randomInt(0, 1024));
let lastMs = 0n;
let seq = 0n;

export function nextId(): string {
  let now = BigInt(Date.now());
  if (now < lastMs) now = lastMs; // clock moved back: keep going from the last instant
  if (now === lastMs) {
    seq = (seq + 1n) & 4095n;
    if (seq === 0n) now = lastMs + 1n; // 4096 ids in one millisecond: borrow the next one
  } else {
    seq = 0n;
  }
  lastMs = now;
  return (((now - EPOCH) << 22n) | (worker << 12n) | seq).toString();
}

// Small format checks (phone numbers, …), shared by the client's forms and the server.

/** The phone check: the message key for what is wrong, or null. */
export function phoneProblem(value: string | null | undefined): 'phone.empty' | 'phone.length' | 'phone.format' | null {
  const v = (value ?? '').trim();
  if (!v) return 'phone.empty';
  if (v.length !== 11) return 'phone.length';
  if (!/^1[3-9]\d{9}$/.test(v)) return 'phone.format';
  return null;
}

/** http and https URLs only. */
export function isUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

const DIGITS = '零壹贰叁肆伍陆柒捌玖';
const UNITS = ['', '拾', '佰', '仟'];
const SECTIONS = ['', '万', '亿', '万亿'];

function section(four: string): string {
  let out = '';
  let zero = false;
  const digits = four.padStart(4, '0');
  for (let i = 0; i < 4; i++) {
    const d = Number(digits[i]);
    if (d === 0) {
      zero = out.length > 0;
      continue;
    }
    if (zero) out += '零';
    zero = false;
    out += DIGITS[d] + UNITS[3 - i];
  }
  return out;
}

/**
 * An amount in Chinese capitals (大写), as on a settlement: 1234.5 -> 壹仟贰佰叁拾肆元伍角整.
 * Only non-negative numbers without leading zeros (and at most two decimals) are accepted;
 * anything else gives ''.
 */
export function amountInCapitals(input: string | number): string {
  const text = typeof input === 'number' ? String(input) : input.trim();
  const match = /^(0|[1-9]\d{0,15})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return '';
  const [, integer, fraction = ''] = match;
  let yuan = '';
  const groups: string[] = [];
  for (let end = integer.length; end > 0; end -= 4) groups.unshift(integer.slice(Math.max(0, end - 4), end));
  let pendingZero = false;
  groups.forEach((group, i) => {
    const unit = SECTIONS[groups.length - 1 - i];
    const words = section(group);
    if (!words) {
      pendingZero = yuan.length > 0;
      return;
    }
    if (yuan && (pendingZero || group.padStart(4, '0')[0] === '0')) yuan += '零';
    pendingZero = false;
    yuan += words + unit;
  });
  const jiao = Number(fraction[0] ?? 0);
  const fen = Number(fraction[1] ?? 0);
  if (!yuan && !jiao && !fen) return '零元整';
  let out = yuan ? `${yuan}元` : '';
  if (!jiao && !fen) return `${out}整`;
  if (jiao) out += `${DIGITS[jiao]}角`;
  else if (yuan) out += '零';
  if (fen) out += `${DIGITS[fen]}分`;
  else out += '整';
  return out;
}

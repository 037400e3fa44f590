// The platform's response envelope {code, success, data, msg}: success is code === 200.
export interface Envelope<T = unknown> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

export function envelope<T>(code: number, data: T, msg: string): Envelope<T> {
  return { code, success: code === 200, data, msg };
}

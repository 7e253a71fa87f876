import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors/app-error';

/**
 * Opaque, stateless page cursors: a JSON position signed with HMAC-SHA256 and
 * bound to the query's filters, so a cursor cannot be edited or replayed under
 * other filters (both → 400 naming `cursor`). Reusing one re-fetches its page.
 */
export class SignedCursor {
  constructor(private readonly secret: string) {}

  encode(position: Record<string, string | number>, filters: unknown): string {
    const body = Buffer.from(JSON.stringify({ p: position, f: this.bind(filters) })).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode<T extends Record<string, string | number>>(cursor: string, filters: unknown): T {
    const [body, sig] = cursor.split('.');
    if (!body || !sig || !this.verify(body, sig)) throw AppError.badRequest('cursor', 'is not a valid cursor');
    let parsed: { p?: T; f?: string };
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p?: T; f?: string };
    } catch {
      throw AppError.badRequest('cursor', 'is not a valid cursor');
    }
    if (parsed.f !== this.bind(filters)) throw AppError.badRequest('cursor', 'was issued for other filters');
    if (!parsed.p || typeof parsed.p !== 'object') throw AppError.badRequest('cursor', 'is not a valid cursor');
    return parsed.p;
  }

  private bind(filters: unknown): string {
    return createHmac('sha256', this.secret)
      .update(JSON.stringify(filters ?? null))
      .digest('base64url')
      .slice(0, 16);
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }

  private verify(body: string, sig: string): boolean {
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

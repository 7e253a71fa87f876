/** A message for a user's devices. */
export interface PushMessage {
  title: string;
  body: string;
  data: Record<string, string>;
}

export interface PushDelivery {
  tokens: string[];
  message: PushMessage;
}

/** The push provider: one call per notification, to every device of its user. */
export interface PushClient {
  send(delivery: PushDelivery): Promise<void>;
}

/**
 * An HTTP push provider: `POST {baseUrl}/send` with `{ tokens, notification:
 * { title, body }, data }` and a bearer key; a non-2xx answer or a timeout fails.
 */
export class HttpPushClient implements PushClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string | undefined,
    private readonly timeoutMs = 5000,
  ) {}

  async send({ tokens, message }: PushDelivery): Promise<void> {
    const res = await fetch(new URL('send', this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.apiKey && { authorization: `Bearer ${this.apiKey}` }) },
      body: JSON.stringify({ tokens, notification: { title: message.title, body: message.body }, data: message.data }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw new Error(`push provider answered ${res.status}`);
  }
}

/** The default without a provider: keeps the latest deliveries in memory (inspectable), sends nothing. */
export class SimulatedPushClient implements PushClient {
  readonly sent: PushDelivery[] = [];

  async send(delivery: PushDelivery): Promise<void> {
    this.sent.push(delivery);
    if (this.sent.length > 1000) this.sent.shift();
  }
}

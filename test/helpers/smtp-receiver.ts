import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 (port 0) keeping every message it accepts, raw. */
export async function startSmtpReceiver() {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The messages sent to `to`, once `count` of them have arrived. */
    async messagesTo(to: string, count = 1, timeoutMs = 15_000): Promise<ReceivedMail[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.filter((m) => m.to.includes(to));
        if (found.length >= count) return found;
        if (Date.now() > deadline) throw new Error(`smtp: ${found.length} of ${count} messages to ${to}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`);
  try {
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  } catch {
    return bytes;
  }
}

/** The decoded subject and the decoded bodies of every part (text and HTML) of a raw message. */
export function readMail(raw: string): { subject: string; text: string; html: string } {
  const subjectLine = /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1] ?? '';
  const subject = subjectLine
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replaceAll('_', ' ')),
    )
    .trim();
  const parts = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  let text = '';
  let html = '';
  for (const part of parts) {
    const split = part.search(/\r?\n\r?\n/);
    if (split < 0) continue;
    const headers = part.slice(0, split);
    const body = part
      .slice(split)
      .trim()
      .replace(/\r?\n--[^\r\n]+--\s*$/, '');
    const type = /content-type:\s*([^;\r\n]+)/i.exec(headers)?.[1]?.toLowerCase();
    const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(headers)?.[1]?.toLowerCase();
    const decoded =
      encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : encoding === 'quoted-printable'
          ? decodeQuotedPrintable(body)
          : body;
    if (type === 'text/plain') text += decoded;
    if (type === 'text/html') html += decoded;
  }
  return { subject, text, html };
}

// Prints an argon2id hash usable as a static user's `passwordHash` in the configuration.
//   npm run hash-password -- 'the password'
//   printf '%s' 'the password' | npm run hash-password      (keeps it out of the shell history)
import { text } from 'node:stream/consumers';
import { hashPassword } from '../src/modules/auth/passwords.ts';

const MIN_LENGTH = 8;
const MAX_LENGTH = 128;

async function readPassword(): Promise<string> {
  const fromArgs = process.argv[2];
  if (fromArgs !== undefined) return fromArgs;
  if (process.stdin.isTTY) process.stderr.write('Password (then Enter and Ctrl-D): ');
  return (await text(process.stdin)).replace(/\r?\n$/, '');
}

const password = await readPassword();
if (password.length < MIN_LENGTH || password.length > MAX_LENGTH) {
  process.stderr.write(`the password must have ${MIN_LENGTH} to ${MAX_LENGTH} characters\n`);
  process.exit(1);
}
process.stdout.write(`${await hashPassword(password)}\n`);

import { Type } from '@sinclair/typebox';
import { Email } from './email.ts';

const LoginPassword = Type.String({ minLength: 1, maxLength: 128 });
const NewPassword = Type.String({ minLength: 8, maxLength: 128 });
const Code = Type.String({ minLength: 1, maxLength: 200, description: 'The code received by e-mail' });

export const ProfileUpdateBody = Type.Object(
  {
    firstName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    lastName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    phone: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
    newsletter: Type.Optional(Type.Boolean()),
    locale: Type.Optional(
      Type.String({
        pattern: '^[a-z]{2}$',
        description: 'Locale of the e-mails (one of the setting locales; 400 otherwise)',
      }),
    ),
    email: Type.Optional(Email),
    currentPassword: Type.Optional({
      ...LoginPassword,
      description: 'Required with a new email',
    }),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const PasswordResetBody = Type.Object({ email: Email }, { additionalProperties: false });
export const PasswordResetConfirmBody = Type.Object(
  { token: Code, password: NewPassword },
  { additionalProperties: false },
);
export const VerifyEmailBody = Type.Object({ token: Code }, { additionalProperties: false });
export const AdminPasswordBody = Type.Object(
  { currentPassword: LoginPassword, newPassword: NewPassword },
  { additionalProperties: false },
);
export const Accepted = Type.Object({ success: Type.Literal(true) });

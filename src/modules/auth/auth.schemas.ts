import { type Static, Type } from '@sinclair/typebox';
import { Email } from './email.ts';

const LoginPassword = Type.String({ minLength: 1, maxLength: 128 });
/** Checked before hashing: 8 is the floor of current guidance, 128 bounds the hashing work. */
const NewPassword = Type.String({ minLength: 8, maxLength: 128 });
const RoleIds = Type.Array(Type.Integer({ minimum: 1, maximum: 9 }), {
  maxItems: 9,
  description:
    'Role ids (1 Superuser, 2 Developer, 3 Admin, 4 CMS, 5 Products, 6 Orders, 7 Reporting, 8 Marketing, 9 Media)',
});

export const LoginBody = Type.Object(
  {
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'The e-mail address' })),
    email: Type.Optional(
      Type.String({ minLength: 1, maxLength: 254, description: 'Accepted in place of username' }),
    ),
    password: LoginPassword,
  },
  { additionalProperties: false },
);
export type LoginBodyType = Static<typeof LoginBody>;

export const TokenPair = Type.Object(
  {
    access_token: Type.String({ description: 'JWT, sent as a bearer token' }),
    refresh_token: Type.String({ description: 'Opaque; used only at the refresh and logout endpoints' }),
    device_token: Type.String({
      description:
        'Keep it on this device (it outlives logout) and send it as X-Device-Token at the next login: failed logins of strangers elsewhere do not refuse a known device',
    }),
  },
  { description: 'Unwrapped token pair (no envelope) and the device token' },
);

/** Read by the login and by the checks of the current password (login-limits.ts). */
export const DeviceTokenHeaders = Type.Object({
  'x-device-token': Type.Optional(
    Type.String({
      maxLength: 2048,
      description:
        'The device_token of an earlier successful login of this account: its holder is not refused for failures made from other devices',
    }),
  ),
});

export const AccessTokenOnly = Type.Object({ access_token: Type.String() }, { description: 'Unwrapped' });

export const RefreshBody = Type.Object(
  { refresh_token: Type.String({ minLength: 1, maxLength: 4096 }) },
  { additionalProperties: false },
);

/** Further fields are accepted and ignored (clients may send more optional fields); none is stored. */
export const RegisterBody = Type.Object(
  {
    email: Email,
    password: NewPassword,
    firstName: Type.String({ minLength: 1, maxLength: 100 }),
    lastName: Type.String({ minLength: 1, maxLength: 100 }),
    phone: Type.Optional(Type.String({ maxLength: 32 })),
    newsletter: Type.Optional(Type.Boolean()),
    locale: Type.Optional(
      Type.String({
        pattern: '^[a-z]{2}$',
        description: 'Locale of the e-mails (one of the setting locales; 400 otherwise)',
      }),
    ),
  },
  { additionalProperties: true },
);
export type RegisterBodyType = Static<typeof RegisterBody>;

export const PasswordChangeBody = Type.Object(
  { currentPassword: LoginPassword, newPassword: NewPassword },
  { additionalProperties: false },
);

export const AdminProfile = Type.Object({
  id: Type.String({ description: 'The token subject: a database id, or static:<username>' }),
  username: Type.String(),
  name: Type.String(),
  roles: Type.Array(Type.Integer()),
});

export const CustomerProfile = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  phone: Type.Union([Type.String(), Type.Null()]),
  newsletter: Type.Boolean(),
  loyaltyPoints: Type.Integer(),
  locale: Type.Union([Type.String(), Type.Null()], { description: "Locale of the e-mails; null: the shop's default" }),
});

export const AdminUser = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  roles: Type.Array(Type.Integer()),
  active: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});

export const AdminUserCreateBody = Type.Object(
  {
    username: Email,
    password: Type.Optional({
      ...NewPassword,
      description: 'Without it the user is e-mailed an invitation to choose a password',
    }),
    roles: RoleIds,
    name: Type.Optional(Type.String({ maxLength: 100 })),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type AdminUserCreate = Static<typeof AdminUserCreateBody>;

export const AdminUserPatchBody = Type.Object(
  {
    username: Type.Optional(Email),
    roles: Type.Optional(RoleIds),
    name: Type.Optional(Type.String({ maxLength: 100 })),
    active: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    description:
      'No password: its owner chooses it (POST /rest/system/admin-user/{id}/password-reset e-mails a code)',
  },
);
export type AdminUserPatch = Static<typeof AdminUserPatchBody>;

export { IdParams } from '../../resources/index.ts';
import { PageQuery } from '../../resources/index.ts';

export const AdminUserListQuery = Type.Object({ ...PageQuery });

import { type Static, Type } from '@sinclair/typebox';

// The delivery address as an order keeps it: its own file, so the order table's column type does
// not pull in the route schemas (and, through them, the resource framework).

export const AddressJson = Type.Object({
  firstName: Type.String(),
  lastName: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  street: Type.String(),
  city: Type.String(),
  countyAlpha: Type.Union([Type.String(), Type.Null()]),
  countryAlpha2: Type.String(),
  postalCode: Type.Union([Type.String(), Type.Null()]),
});
export type AddressJsonType = Static<typeof AddressJson>;

// Shipping zones, their rates per shipping method, and VAT rates per country (checkout/shipping-zone,
// checkout/shipping-rate, checkout/tax-rate; docs/shipping-and-tax.md).
import {
  ArrayField,
  ArrayInput,
  AutocompleteArrayInput,
  BooleanField,
  BooleanInput,
  ChipField,
  Create,
  Datagrid,
  Edit,
  List,
  NumberField,
  NumberInput,
  ReferenceField,
  ReferenceInput,
  required,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  SingleFieldList,
  TextField,
  TextInput,
} from 'react-admin';

const money = { minimumFractionDigits: 2 };

/** The countries a Greek shop ships to most: the EU, then its neighbours. */
const COUNTRIES = [
  ['GR', 'Greece'],
  ['CY', 'Cyprus'],
  ['AT', 'Austria'],
  ['BE', 'Belgium'],
  ['BG', 'Bulgaria'],
  ['HR', 'Croatia'],
  ['CZ', 'Czechia'],
  ['DK', 'Denmark'],
  ['EE', 'Estonia'],
  ['FI', 'Finland'],
  ['FR', 'France'],
  ['DE', 'Germany'],
  ['HU', 'Hungary'],
  ['IE', 'Ireland'],
  ['IT', 'Italy'],
  ['LV', 'Latvia'],
  ['LT', 'Lithuania'],
  ['LU', 'Luxembourg'],
  ['MT', 'Malta'],
  ['NL', 'Netherlands'],
  ['PL', 'Poland'],
  ['PT', 'Portugal'],
  ['RO', 'Romania'],
  ['SK', 'Slovakia'],
  ['SI', 'Slovenia'],
  ['ES', 'Spain'],
  ['SE', 'Sweden'],
  ['AL', 'Albania'],
  ['MK', 'North Macedonia'],
  ['TR', 'Türkiye'],
  ['GB', 'United Kingdom'],
  ['CH', 'Switzerland'],
  ['US', 'United States'],
].map(([id, name]) => ({ id, name: `${name} (${id})` }));

const TAX_CLASSES = ['standard', 'reduced', 'super_reduced', 'zero'].map((id) => ({ id, name: id }));

/** A list of postal rules as text inputs ("84" or "84000-84999"). */
const rulesFormat = (rules?: string[]) => (rules ?? []).map((rule) => ({ rule }));
const rulesParse = (rows?: { rule?: string }[]) => (rows ?? []).map((row) => row.rule ?? '').filter(Boolean);

export function ZoneList() {
  return (
    <List sort={{ field: 'id', order: 'ASC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="name" />
        <TextField source="countries" />
        <TextField source="postalCodes.include" label="Postal codes" emptyText="—" />
        <NumberField source="priority" />
      </Datagrid>
    </List>
  );
}

function ZoneForm() {
  return (
    <SimpleForm>
      <TextInput source="name" validate={required()} />
      <AutocompleteArrayInput source="countries" choices={COUNTRIES} validate={required()} />
      <AutocompleteArrayInput
        source="regions"
        label="Regions (county codes)"
        choices={[]}
        onCreate={(code?: string) =>
          code ? { id: code.toUpperCase(), name: code.toUpperCase() } : undefined
        }
      />
      <ArrayInput
        source="postalCodes.include"
        label="Postal codes held (84 or 84000-84999)"
        format={rulesFormat}
        parse={rulesParse}
      >
        <SimpleFormIterator inline>
          <TextInput source="rule" label="Prefix or range" />
        </SimpleFormIterator>
      </ArrayInput>
      <ArrayInput
        source="postalCodes.exclude"
        label="Postal codes left out"
        format={rulesFormat}
        parse={rulesParse}
      >
        <SimpleFormIterator inline>
          <TextInput source="rule" label="Prefix or range" />
        </SimpleFormIterator>
      </ArrayInput>
      <NumberInput source="priority" min={0} step={1} defaultValue={0} />
    </SimpleForm>
  );
}

const NEW_ZONE = { postalCodes: { include: [], exclude: [] }, regions: [] };

export const ZoneEdit = () => (
  <Edit mutationMode="pessimistic">
    <ZoneForm />
  </Edit>
);
export const ZoneCreate = () => (
  <Create record={NEW_ZONE}>
    <ZoneForm />
  </Create>
);

export function RateList() {
  return (
    <List sort={{ field: 'id', order: 'ASC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <ReferenceField source="transportId" reference="transports" label="Shipping method" />
        <ReferenceField source="zoneId" reference="shippingZones" label="Zone" />
        <NumberField source="price" options={money} />
        <ArrayField source="weightBands" label="Weight bands">
          <SingleFieldList linkType={false}>
            <ChipField source="upToKg" />
          </SingleFieldList>
        </ArrayField>
        <NumberField source="codFee" label="Cash-on-delivery fee" options={money} />
        <BooleanField source="active" />
      </Datagrid>
    </List>
  );
}

function RateForm() {
  return (
    <SimpleForm>
      <ReferenceInput source="transportId" reference="transports">
        <SelectInput optionText="name" label="Shipping method" validate={required()} />
      </ReferenceInput>
      <ReferenceInput source="zoneId" reference="shippingZones">
        <SelectInput optionText="name" label="Zone" validate={required()} />
      </ReferenceInput>
      <NumberInput source="price" validate={required()} min={0} step={0.01} />
      <ArrayInput source="weightBands" label="Weight bands (ascending)">
        <SimpleFormIterator inline>
          <NumberInput source="upToKg" label="Up to kg" min={0} step={0.1} />
          <NumberInput source="price" label="Price" min={0} step={0.01} />
        </SimpleFormIterator>
      </ArrayInput>
      <NumberInput
        source="overweightPricePerKg"
        label="Per started kg above the last band"
        min={0}
        step={0.01}
      />
      <NumberInput source="freeShippingThreshold" label="Free shipping from" min={0} />
      <NumberInput source="codFee" label="Cash-on-delivery fee" min={0} step={0.01} />
      <BooleanInput source="active" defaultValue={true} />
    </SimpleForm>
  );
}

export const RateEdit = () => (
  <Edit mutationMode="pessimistic">
    <RateForm />
  </Edit>
);
export const RateCreate = () => (
  <Create record={{ weightBands: [] }}>
    <RateForm />
  </Create>
);

export function TaxRateList() {
  return (
    <List sort={{ field: 'countryAlpha2', order: 'ASC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="countryAlpha2" label="Country" />
        <TextField source="taxClass" label="Tax class" />
        <NumberField source="rate" label="Rate (%)" />
      </Datagrid>
    </List>
  );
}

function TaxRateForm() {
  return (
    <SimpleForm>
      <SelectInput source="countryAlpha2" label="Country" choices={COUNTRIES} validate={required()} />
      <SelectInput source="taxClass" label="Tax class" choices={TAX_CLASSES} validate={required()} />
      <NumberInput source="rate" label="Rate (%)" min={0} max={100} step={0.01} validate={required()} />
    </SimpleForm>
  );
}

export const TaxRateEdit = () => (
  <Edit mutationMode="pessimistic">
    <TaxRateForm />
  </Edit>
);
export const TaxRateCreate = () => (
  <Create>
    <TaxRateForm />
  </Create>
);

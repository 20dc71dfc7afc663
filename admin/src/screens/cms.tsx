// Reels (cms/reel), slider groups and slides (cms/slider-group, cms/slider).
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  Edit,
  List,
  NumberField,
  NumberInput,
  ReferenceArrayInput,
  ReferenceField,
  ReferenceInput,
  required,
  SimpleForm,
  TextField,
  TextInput,
  UrlField,
} from 'react-admin';
import { TranslatableInputs, type TranslatedField } from './translations.tsx';

export function ReelList() {
  return (
    <List sort={{ field: 'position', order: 'ASC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="title" />
        <UrlField source="videoUrl" label="Video" />
        <NumberField source="position" />
        <BooleanField source="active" />
      </Datagrid>
    </List>
  );
}

/** The texts per locale of a reel and of a slide (the API's translatable fields). */
const REEL_TEXTS: TranslatedField[] = [{ source: 'title', label: 'Title', required: true }];
const SLIDE_TEXTS: TranslatedField[] = [
  { source: 'title', label: 'Title', required: true },
  { source: 'subtitle', label: 'Subtitle' },
];

function ReelForm() {
  return (
    <SimpleForm>
      <TranslatableInputs fields={REEL_TEXTS} />
      <TextInput source="videoUrl" label="Video URL" validate={required()} fullWidth />
      <TextInput source="posterUrl" label="Poster URL" fullWidth />
      <ReferenceArrayInput source="productIds" reference="products">
        <AutocompleteArrayInput optionText="name" label="Products" />
      </ReferenceArrayInput>
      <NumberInput source="position" step={1} />
      <BooleanInput source="active" defaultValue={true} />
    </SimpleForm>
  );
}

export const ReelEdit = () => (
  <Edit mutationMode="pessimistic">
    <ReelForm />
  </Edit>
);
export const ReelCreate = () => (
  <Create>
    <ReelForm />
  </Create>
);

export function SliderGroupList() {
  return (
    <List sort={{ field: 'id', order: 'ASC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="name" />
        <TextField source="code" />
        <BooleanField source="active" />
      </Datagrid>
    </List>
  );
}

function SliderGroupForm() {
  return (
    <SimpleForm>
      <TextInput source="name" validate={required()} />
      <TextInput source="code" validate={required()} />
      <BooleanInput source="active" defaultValue={true} />
    </SimpleForm>
  );
}

export const SliderGroupEdit = () => (
  <Edit mutationMode="pessimistic">
    <SliderGroupForm />
  </Edit>
);
export const SliderGroupCreate = () => (
  <Create>
    <SliderGroupForm />
  </Create>
);

export function SliderList() {
  return (
    <List sort={{ field: 'position', order: 'ASC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <ReferenceField source="groupId" reference="sliderGroups" label="Group" sortable={false} />
        <TextField source="title" />
        <UrlField source="imageUrl" label="Image" />
        <NumberField source="position" />
        <BooleanField source="active" />
      </Datagrid>
    </List>
  );
}

function SliderForm() {
  return (
    <SimpleForm>
      <ReferenceInput source="groupId" reference="sliderGroups">
        <AutocompleteInput optionText="name" label="Group" validate={required()} />
      </ReferenceInput>
      <TranslatableInputs fields={SLIDE_TEXTS} />
      <TextInput source="imageUrl" label="Image URL" validate={required()} fullWidth />
      <TextInput source="linkUrl" label="Link URL" fullWidth />
      <NumberInput source="position" step={1} />
      <BooleanInput source="active" defaultValue={true} />
    </SimpleForm>
  );
}

export const SliderEdit = () => (
  <Edit mutationMode="pessimistic">
    <SliderForm />
  </Edit>
);
export const SliderCreate = () => (
  <Create>
    <SliderForm />
  </Create>
);

import {
  BooleanInput,
  Create,
  Edit,
  NumberInput,
  type RaRecord,
  required,
  SimpleForm,
  TextInput,
  useGetOne,
  useRecordContext,
} from 'react-admin';
import { ChangeHistory } from './change-history.tsx';
import { MediaInput } from './media.tsx';
import { declaredOptions, imagesFormat, imagesParse, OptionInputs } from './products.tsx';

/** The product's declared options, for the variant's choices. */
function ProductOptionInputs({ productId }: { productId: unknown }) {
  const { data: product } = useGetOne('products', { id: productId }, { enabled: productId !== undefined });
  return <OptionInputs options={declaredOptions(product?.options)} />;
}

function VariantFields({ productId }: { productId: unknown }) {
  return (
    <>
      <TextInput source="sku" label="SKU" validate={required()} />
      <ProductOptionInputs productId={productId} />
      <NumberInput source="price" label="Price (gross; empty: the product's)" min={0} step={0.01} />
      <NumberInput source="stockQty" label="Stock" min={0} step={1} />
      <NumberInput source="weightKg" label="Weight (kg; empty: the product's)" min={0} />
      <MediaInput />
      <TextInput
        source="images"
        label="Image URLs (one per line)"
        multiline
        fullWidth
        format={imagesFormat}
        parse={imagesParse}
      />
      <NumberInput source="position" step={1} min={0} />
      <BooleanInput source="active" defaultValue={true} />
    </>
  );
}

function VariantHistory() {
  const variant = useRecordContext();
  return variant ? <ChangeHistory entity="variant" entityId={variant.id} /> : null;
}

function EditedVariantFields() {
  const variant = useRecordContext();
  return <VariantFields productId={variant?.productId} />;
}

const backToProduct = (_resource?: string, _id?: unknown, data?: Partial<RaRecord>) =>
  `products/${data?.productId}`;

export function VariantEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect={backToProduct} aside={<VariantHistory />}>
      <SimpleForm>
        <EditedVariantFields />
      </SimpleForm>
    </Edit>
  );
}

/** Opened from a product's page with `?source={"productId":…}`, which react-admin makes the new record. */
export function VariantCreate() {
  return (
    <Create redirect={backToProduct}>
      <SimpleForm>
        <EditedVariantFields />
      </SimpleForm>
    </Create>
  );
}

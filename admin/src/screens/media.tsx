import { type DragEvent, useState } from 'react';
import {
  Datagrid,
  DeleteButton,
  FunctionField,
  List,
  NumberField,
  type RaRecord,
  TextField,
  TextInput,
  useInput,
} from 'react-admin';
import { useShopDataProvider } from '../use-shop-data-provider.ts';

// Images: the library (every upload, searchable, with what shows each one) and the input of a
// product's or variant's `media` (drop several files, see each upload's progress, order them, give
// each its alt text). The API keeps the files; the form keeps [{assetId, alt}].

interface MediaEntry {
  id: number;
  url: string;
  alt: string;
}

interface Upload {
  name: string;
  progress: number;
  error?: string;
}

const thumb = (url: string) => `${url}${url.includes('?') ? '&' : '?'}w=128&format=auto`;

export function MediaList() {
  return (
    <List
      filters={[<TextInput key="q" source="q" label="Search" alwaysOn />]}
      sort={{ field: 'id', order: 'DESC' }}
    >
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <FunctionField
          label="Image"
          render={(r: RaRecord) => <img src={thumb(String(r.url))} alt={String(r.alt)} height={48} />}
        />
        <TextField source="url" label="File" />
        <TextField source="alt" label="Alt text" />
        <FunctionField label="Size" render={(r: RaRecord) => `${r.width} × ${r.height}`} />
        <NumberField source="bytes" />
        <FunctionField
          label="Used by"
          render={(r: RaRecord) =>
            (r.usedBy as { owner: string; id: number }[]).map((u) => `${u.owner} ${u.id}`).join(', ') || '–'
          }
        />
        <DeleteButton mutationMode="pessimistic" />
      </Datagrid>
    </List>
  );
}

/** The entries as the form holds them: read answers ({id, url, alt}) or what this input wrote ({assetId, alt}). */
function entriesOf(value: unknown, urls: ReadonlyMap<number, string>): MediaEntry[] {
  if (!Array.isArray(value)) return [];
  return value.map((m) => {
    const id = Number(m.id ?? m.assetId);
    return { id, url: String(m.url ?? urls.get(id) ?? ''), alt: String(m.alt ?? '') };
  });
}

/** A record's `media`: written as [{assetId, alt}] in the order shown. */
export function MediaInput() {
  const { field } = useInput({ source: 'media' });
  // The URLs of what was read or uploaded: the form holds only what the API takes.
  const [urls] = useState(() => new Map<number, string>());
  const entries = entriesOf(field.value, urls);
  for (const e of entries) if (e.url) urls.set(e.id, e.url);
  const provider = useShopDataProvider();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);

  const write = (next: MediaEntry[]) => {
    for (const e of next) urls.set(e.id, e.url);
    field.onChange(next.map((e) => ({ assetId: e.id, alt: e.alt })));
  };

  async function add(files: File[]) {
    setUploads(files.map((f) => ({ name: f.name, progress: 0 })));
    const added: MediaEntry[] = [];
    for (const [i, file] of files.entries()) {
      const progress = (p: number, error?: string) =>
        setUploads((all) => all.map((u, j) => (j === i ? { ...u, progress: p, error } : u)));
      try {
        const asset = await provider.uploadMedia(file, (p) => progress(p));
        added.push({ id: asset.id, url: asset.url, alt: asset.alt });
        progress(1);
      } catch (err) {
        progress(0, (err as Error).message);
      }
    }
    write([...entries, ...added]);
  }

  const move = (from: number, by: number) => {
    const next = [...entries];
    const [moved] = next.splice(from, 1);
    next.splice(Math.max(0, Math.min(next.length, from + by)), 0, moved);
    write(next);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void add([...event.dataTransfer.files]);
  };

  return (
    <fieldset
      style={{ border: '1px solid #ccc', borderRadius: 4, padding: 12, marginBottom: 16, width: '100%' }}
    >
      <legend>Images</legend>
      <label
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        style={{
          display: 'block',
          padding: 16,
          border: `2px dashed ${over ? '#1976d2' : '#aaa'}`,
          textAlign: 'center',
          cursor: 'pointer',
        }}
      >
        Drop images here, or choose files
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
          multiple
          aria-label="Upload images"
          style={{ display: 'block', margin: '8px auto 0' }}
          onChange={(e) => void add([...(e.target.files ?? [])])}
        />
      </label>
      {uploads.map((u) => (
        <div key={u.name} role="status">
          {u.name}:{' '}
          {u.error ? (
            `failed: ${u.error}`
          ) : (
            <progress value={u.progress} max={1} aria-label={`Uploading ${u.name}`} />
          )}
        </div>
      ))}
      <ol style={{ listStyle: 'none', padding: 0 }} aria-label="Images in order">
        {entries.map((entry, i) => (
          <li key={entry.id} style={{ display: 'flex', alignItems: 'center', gap: 8, margin: '8px 0' }}>
            <img src={thumb(entry.url)} alt={entry.alt} width={64} />
            <input
              aria-label={`Alt text of image ${i + 1}`}
              value={entry.alt}
              onChange={(e) => write(entries.map((x, j) => (j === i ? { ...x, alt: e.target.value } : x)))}
            />
            <button
              type="button"
              onClick={() => move(i, -1)}
              disabled={i === 0}
              aria-label={`Move image ${i + 1} up`}
            >
              ↑
            </button>
            <button
              type="button"
              onClick={() => move(i, 1)}
              disabled={i === entries.length - 1}
              aria-label={`Move image ${i + 1} down`}
            >
              ↓
            </button>
            <button
              type="button"
              onClick={() => write(entries.filter((_, j) => j !== i))}
              aria-label={`Remove image ${i + 1}`}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
    </fieldset>
  );
}

import multipart from '@fastify/multipart';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { access } from '../../http/access.ts';
import { Envelope, ListEnvelope, ok, okOnly, SuccessOnly } from '../../http/envelope.ts';
import { neverStored } from '../../http/no-store.ts';
import { errorResponse } from '../../http/openapi.ts';
import { Role } from '../../http/roles.ts';
import { sendReady } from '../../http/send-ready.ts';
import { limitAsSent } from '../../resources/index.ts';
import { setImageWorkers } from './image-processing.ts';
import { MediaFiles } from './media-files.ts';
import type { MediaUse } from './media-uses.ts';
import {
  AltBody,
  AssetJson,
  AssetParams,
  AssetQuery,
  FileParams,
  FileQuery,
  UploadBody,
} from './media.schemas.ts';
import {
  changeAlt,
  listAssets,
  type MediaDeps,
  removeAsset,
  showAsset,
  uploadAsset,
} from './media.service.ts';
import { type MediaStorage, openMediaStorage } from './storage/index.ts';
import { dropReceivedFile, receiveFile, receivedFile } from './upload.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The files of the uploaded images (their copies are made and kept here). */
    mediaFiles: MediaFiles;
    /** Where the image files are kept (the demo shop's pictures are written there too). */
    mediaStorage: MediaStorage;
  }
}

const tags = ['media'];
const WRITERS = [Role.Media, Role.Products, Role.CMS] as const;

/** The media library (/rest/media/asset) and the image files (/media/{id}/{name}). */
export function mediaModule(uses: readonly MediaUse[]): FastifyPluginAsyncTypebox {
  // Root level (fastify-plugin), so the app holds `mediaFiles`; the routes keep their hooks below.
  return fp(async (app) => {
    const storage = openMediaStorage(app.config);
    const { maxBytes, maxPixels, imageWorkers } = app.config.media;
    setImageWorkers(imageWorkers);
    const deps: MediaDeps = { db: app.db, storage, uses, maxPixels };
    const files = new MediaFiles(app.db, storage, maxPixels);
    app.decorate('mediaFiles', files);
    app.decorate('mediaStorage', storage);
    app.addHook('onClose', async () => storage.close?.());

    await app.register(async (library) => {
      await library.register(multipart, {
        attachFieldsToBody: 'keyValues',
        onFile: receiveFile,
        limits: { fileSize: maxBytes, files: 1, fields: 2, fieldSize: 2000, parts: 3 },
      });
      library.addHook('onSend', neverStored);
      library.addHook('onResponse', dropReceivedFile);
      registerLibrary(library, deps, files);
    });
    await app.register(async (served) => registerFiles(served, files));
  });
}

type Plugin = Parameters<FastifyPluginAsyncTypebox>[0];

function registerLibrary(app: Plugin, deps: MediaDeps, files: MediaFiles): void {
  const writer = { access: access.admin(...WRITERS), audit: { entity: 'media_asset' } };
  app.post(
    '/rest/media/asset',
    {
      schema: {
        tags,
        operationId: 'uploadMediaAsset',
        summary: 'Upload an image',
        description:
          'multipart/form-data with the image as `file` and an optional `alt`. The type is read from the bytes; metadata (EXIF, GPS) is not kept.',
        consumes: ['multipart/form-data'],
        body: UploadBody,
        response: { 201: Envelope(AssetJson), 422: errorResponse(422) },
      },
      config: writer,
    },
    async (request, reply) => {
      const file = receivedFile(request);
      const asset = await uploadAsset(deps, request.caller, file, request.body.alt ?? '');
      return reply.status(201).send(ok(asset));
    },
  );
  registerReads(app, deps);
  app.patch(
    '/rest/media/asset/:id',
    {
      schema: {
        tags,
        operationId: 'updateMediaAsset',
        summary: "Change an image's alt text",
        params: AssetParams,
        body: AltBody,
        response: { 200: Envelope(AssetJson), 404: errorResponse(404) },
      },
      config: writer,
    },
    async (request) => ok(await changeAlt(deps, request.caller, request.params.id, request.body.alt)),
  );
  app.delete(
    '/rest/media/asset/:id',
    {
      schema: {
        tags,
        operationId: 'deleteMediaAsset',
        summary: 'Delete an image no product, variant, slide or reel shows',
        params: AssetParams,
        response: { 200: SuccessOnly, 404: errorResponse(404), 409: errorResponse(409) },
      },
      config: writer,
    },
    async (request) => {
      await removeAsset(deps, request.caller, request.params.id);
      files.forget(request.params.id);
      return okOnly();
    },
  );
}

function registerReads(app: Plugin, deps: MediaDeps): void {
  app.get(
    '/rest/media/asset',
    {
      schema: {
        tags,
        operationId: 'listMediaAssets',
        summary: 'List the uploaded images, newest first',
        querystring: AssetQuery,
        response: { 200: ListEnvelope(AssetJson) },
      },
      config: { access: access.admin(...WRITERS) },
      preValidation: limitAsSent,
    },
    async (request) => listAssets(deps, request.query),
  );
  app.get(
    '/rest/media/asset/:id',
    {
      schema: {
        tags,
        operationId: 'getMediaAsset',
        summary: 'Get an uploaded image with what shows it',
        params: AssetParams,
        response: { 200: Envelope(AssetJson), 404: errorResponse(404) },
      },
      config: { access: access.admin(...WRITERS) },
    },
    async (request) => ok(await showAsset(deps, request.params.id)),
  );
}

function registerFiles(app: Plugin, files: MediaFiles): void {
  app.get(
    '/media/:id/:name',
    {
      schema: {
        tags,
        operationId: 'getMediaFile',
        summary: 'Get an image file, or a copy of it resized and converted',
        description:
          'Without w and format, the stored original. A copy is made the first time it is asked for and kept; every answer may be cached for a year.',
        params: FileParams,
        querystring: FileQuery,
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', contentMediaType: 'image/*', description: 'The image' }),
          404: errorResponse(404),
        },
      },
    },
    async (request, reply) => {
      const { id, name } = request.params;
      const { w, format } = request.query;
      const file = await files.file(id, name, { w, format, accept: request.headers.accept });
      // The file never changes under its URL: a client holding it gets 304 and no bytes.
      const notModified = request.headers['if-none-match'] === file.etag;
      const headers = format === 'auto' ? { ...file.headers, vary: 'Accept' } : file.headers;
      sendReady(reply, file.bytes, headers, notModified);
    },
  );
}

import type { components } from '@parley/sdk';
import { call, client, type CallOptions } from '../../app/api';

type Schemas = components['schemas'];
type Extra = Pick<CallOptions, 'silent' | 'signal' | 'dedupeKey'>;

/** A knowledge base with its totals. */
export type KnowledgeBase = Schemas['KnowledgeBase'];
/** A file of a knowledge base and its import state. */
export type KnowledgeFile = Schemas['KnowledgeFile'];
/** The first 50 segments (or rows) of a pending file. */
export type KnowledgeFilePreview = Schemas['KnowledgeFilePreview'];
/** A segment of an indexed file. */
export type KnowledgeSegment = Schemas['KnowledgeSegment'];
/** What a retrieval test answers. */
export type RetrievalTestResult = Schemas['RetrievalTestResult'];
/** One hit of a retrieval test. */
export type RetrievedChunk = Schemas['RetrievedChunk'];
/** Body of knowledge base create. */
export type CreateKnowledgeBase = Schemas['CreateKnowledgeBase'];
/** Body of knowledge base update. */
export type UpdateKnowledgeBase = Schemas['UpdateKnowledgeBase'];

const kb = (knowledgeBaseId: string) => ({ params: { path: { knowledgeBaseId } } });
const file = (fileId: string) => ({ params: { path: { fileId } } });
const segment = (segmentId: string) => ({ params: { path: { segmentId } } });

/**
 * The knowledge calls the console makes, through the SDK and the request layer (spec §7
 * Knowledge). Forms that show a refusal on a field call with `silent`.
 */
export const knowledgeEndpoints = {
  list: (extra: Extra = {}) => call({ dedupeKey: 'knowledge-bases', ...extra }, (init) => client.GET('/api/v1/knowledge-bases', init)),
  get: (id: string, extra: Extra = {}) => call(extra, (init) => client.GET('/api/v1/knowledge-bases/{knowledgeBaseId}', { ...init, ...kb(id) })),
  create: (body: CreateKnowledgeBase, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST('/api/v1/knowledge-bases', { ...init, body })),
  update: (id: string, body: UpdateKnowledgeBase, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH('/api/v1/knowledge-bases/{knowledgeBaseId}', { ...init, ...kb(id), body })),
  remove: (id: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE('/api/v1/knowledge-bases/{knowledgeBaseId}', { ...init, ...kb(id) })),
  files: (id: string, extra: Extra = {}) =>
    call({ dedupeKey: `knowledge-files-${id}`, ...extra }, (init) => client.GET('/api/v1/knowledge-bases/{knowledgeBaseId}/files', { ...init, ...kb(id) })),
  /** Multipart upload of one document; `name` is the file name without extension. */
  uploadDocument: (id: string, upload: Blob, fileName: string, name: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => {
      const form = new FormData();
      form.append('file', upload, fileName);
      form.append('name', name);
      // openapi-fetch hands FormData to fetch untouched, which sets the multipart boundary.
      return client.POST('/api/v1/knowledge-bases/{knowledgeBaseId}/files', {
        ...init,
        ...kb(id),
        body: form as unknown as Schemas['UploadDocument'],
        bodySerializer: (body: unknown) => body as FormData,
      });
    }),
  preview: (fileId: string, extra: Extra = {}) =>
    call(extra, (init) => client.GET('/api/v1/knowledge-files/{fileId}/preview', { ...init, ...file(fileId) })),
  confirm: (fileId: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST('/api/v1/knowledge-files/{fileId}/confirm', { ...init, ...file(fileId) })),
  renameFile: (fileId: string, name: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH('/api/v1/knowledge-files/{fileId}', { ...init, ...file(fileId), body: { name } })),
  removeFile: (fileId: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE('/api/v1/knowledge-files/{fileId}', { ...init, ...file(fileId) })),
  segments: (fileId: string, pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: `knowledge-segments-${fileId}`, ...extra }, (init) =>
      client.GET('/api/v1/knowledge-files/{fileId}/segments', { ...init, params: { path: { fileId }, query: { pageNo, pageSize } } })),
  addSegment: (fileId: string, content: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST('/api/v1/knowledge-files/{fileId}/segments', { ...init, ...file(fileId), body: { content } })),
  updateSegment: (segmentId: string, body: { content?: string; enabled?: boolean }, extra: Extra = {}) =>
    call(extra, (init) => client.PATCH('/api/v1/knowledge-segments/{segmentId}', { ...init, ...segment(segmentId), body })),
  removeSegment: (segmentId: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE('/api/v1/knowledge-segments/{segmentId}', { ...init, ...segment(segmentId) })),
  retrievalTest: (id: string, body: { query: string; similarityThreshold?: number }, extra: Extra = {}) =>
    call(extra, (init) => client.POST('/api/v1/knowledge-bases/{knowledgeBaseId}/retrieval-test', { ...init, ...kb(id), body })),
};

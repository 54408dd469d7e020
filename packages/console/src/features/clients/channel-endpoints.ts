import type { components } from '@parley/sdk';
import { call, client, type CallOptions } from '../../app/api';

type Schemas = components['schemas'];
type Extra = Pick<CallOptions, 'silent' | 'signal' | 'dedupeKey'>;

/** A messaging platform that can be connected, with its configuration form. */
export type ChannelDescriptor = Schemas['ChannelDescriptor'];
/** One field of a platform's configuration form. */
export type ChannelField = Schemas['ChannelField'];
/** A text in both interface languages. */
export type LocalizedText = Schemas['LocalizedText'];
/** An app connected to a messaging platform (secrets only as the keys that are set). */
export type ChannelClient = Schemas['ChannelClient'];
/** Body of channel client create. */
export type CreateChannelClient = Schemas['CreateChannelClient'];
/** Body of channel client update. */
export type UpdateChannelClient = Schemas['UpdateChannelClient'];

const byId = (id: string) => ({ params: { path: { id } } });

/**
 * The channel client calls the console makes (issue 6), through the SDK and the request layer.
 * Forms that show a refusal on a field call with `silent`.
 */
export const channelEndpoints = {
  catalogue: (extra: Extra = {}) => call({ dedupeKey: 'channel-catalogue', ...extra }, (init) => client.GET('/api/v1/channel-clients/catalogue', init)),
  list: (extra: Extra = {}) => call({ dedupeKey: 'channel-clients', ...extra }, (init) => client.GET('/api/v1/channel-clients', init)),
  get: (id: string, extra: Extra = {}) => call(extra, (init) => client.GET('/api/v1/channel-clients/{id}', { ...init, ...byId(id) })),
  create: (body: CreateChannelClient, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST('/api/v1/channel-clients', { ...init, body })),
  update: (id: string, body: UpdateChannelClient, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH('/api/v1/channel-clients/{id}', { ...init, ...byId(id), body })),
  remove: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE('/api/v1/channel-clients/{id}', { ...init, ...byId(id) })),
  /** Checks the credentials with the platform (and registers the webhook where it is set by API). */
  check: (id: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST('/api/v1/channel-clients/{id}/check', { ...init, ...byId(id) })),
};

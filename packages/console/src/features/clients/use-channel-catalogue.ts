import { channelEndpoints, type ChannelDescriptor } from "../../lib/api/channel-clients";
import { useSpaceQuery } from "../../lib/api/query";

const NONE: ChannelDescriptor[] = [];

/** The platforms that can be connected (undefined while loading, [] when the call failed). */
export function useChannelCatalogue(): ChannelDescriptor[] | undefined {
  const { data, isError } = useSpaceQuery({ key: ["channel-catalogue"], fetch: (signal) => channelEndpoints.catalogue({ silent: true, signal }) });
  return isError ? NONE : data;
}

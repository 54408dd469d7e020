import { useEffect, useState } from 'react';
import { channelEndpoints, type ChannelDescriptor } from '../../lib/api/channel-clients';

/** The platforms that can be connected (undefined while loading, [] when the call failed). */
export function useChannelCatalogue(): ChannelDescriptor[] | undefined {
  const [catalogue, setCatalogue] = useState<ChannelDescriptor[]>();
  useEffect(() => {
    let live = true;
    void channelEndpoints.catalogue({ silent: true }).then((result) => {
      if (!live) return;
      if (result.ok) setCatalogue(result.data);
      else if (result.error.kind !== 'aborted') setCatalogue([]);
    });
    return () => {
      live = false;
    };
  }, []);
  return catalogue;
}

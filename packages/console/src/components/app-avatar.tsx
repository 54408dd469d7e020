import { Avatar } from "antd";
import { useState } from "react";
import { isImageDataUrl, isSafeUrl } from "../lib/safe-url";
import "./app-avatar.css";

/** Props of {@link AppAvatar}. */
export interface AppAvatarProps {
  name: string;
  src?: string | null;
  size?: number;
}

/** An app's avatar; falls back to its initial when the picture is missing or does not load. */
export function AppAvatar({ name, src, size = 40 }: AppAvatarProps) {
  const [failed, setFailed] = useState<string>();
  const usable = src && (isSafeUrl(src) || isImageDataUrl(src)) && failed !== src ? src : undefined;
  return (
    <Avatar
      shape="square"
      size={size}
      className="pl-app-avatar"
      src={usable}
      onError={() => {
        setFailed(src ?? undefined);
        return false;
      }}
    >
      {[...name.trim()][0]?.toUpperCase() ?? "A"}
    </Avatar>
  );
}

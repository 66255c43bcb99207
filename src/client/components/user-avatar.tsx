import { useState } from 'react';
import { cn } from '@/lib/utils';

export const DEFAULT_AVATAR = '/default-avatar.svg';

/** docs/product.md#screens-and-routes: the picture URL carries a cache-busting timestamp (the user's last update). */
export function profileImageSrc(user: { image: string | null; updatedAt?: string }): string {
  if (!user.image) return DEFAULT_AVATAR;
  const stamp = user.updatedAt ? Date.parse(user.updatedAt) || 0 : 0;
  return `${user.image}${user.image.includes('?') ? '&' : '?'}t=${stamp}`;
}

/** The user's picture, falling back to the default picture when it fails to load. */
export function UserAvatar({
  user,
  className,
  alt = 'Profile picture',
}: {
  user: { image: string | null; updatedAt?: string };
  className?: string;
  alt?: string;
}) {
  const src = profileImageSrc(user);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  return (
    <img
      src={failedSrc === src ? DEFAULT_AVATAR : src}
      onError={() => setFailedSrc(src)}
      alt={alt}
      data-testid="profile-picture"
      className={cn('size-9 rounded-full border bg-muted object-cover', className)}
    />
  );
}

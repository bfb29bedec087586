import type { AppContext } from '../context.ts';
import type { User } from '../users/users-service.ts';

/** A person as the pages show them: names, facts and profile-picture URLs. */
export interface PersonView {
  id: number;
  userName: string;
  fullName: string;
  countryIso: string | null;
  gender: string | null;
  joined: string;
  /** 50×50 square picture, for lists. */
  pictureSmall: string | undefined;
  /** 120 px picture, for the profile. */
  pictureLarge: string | undefined;
}

/** How the viewer stands with another person: which friend buttons to show. */
export type Relationship = 'self' | 'friends' | 'request_sent' | 'request_received' | 'none';

export async function peopleViews(ctx: AppContext, users: User[]): Promise<PersonView[]> {
  const pictureIds = users.flatMap((user) => (user.picture_photo_id ? [user.picture_photo_id] : []));
  const files = await ctx.photos.filesOf(pictureIds);
  return users.map((user) => {
    const picture = user.picture_photo_id ? files.get(user.picture_photo_id) : undefined;
    return {
      id: user.id,
      userName: user.user_name,
      fullName: user.full_name,
      countryIso: user.country_iso,
      gender: user.gender,
      joined: new Date(user.joined).toISOString().slice(0, 10),
      pictureSmall: picture?.['50px_square']?.url,
      pictureLarge: picture?.['120px']?.url,
    };
  });
}

export async function personView(ctx: AppContext, user: User): Promise<PersonView> {
  const [view] = await peopleViews(ctx, [user]);
  return view!;
}

export async function relationshipOf(ctx: AppContext, viewerId: number, otherId: number): Promise<Relationship> {
  if (viewerId === otherId) return 'self';
  const [friends, sent, received] = await Promise.all([
    ctx.friends.isFriend(viewerId, otherId),
    ctx.friends.hasPendingRequest(viewerId, otherId),
    ctx.friends.hasPendingRequest(otherId, viewerId),
  ]);
  if (friends) return 'friends';
  if (sent) return 'request_sent';
  return received ? 'request_received' : 'none';
}

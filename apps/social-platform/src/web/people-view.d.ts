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
export declare function peopleViews(ctx: AppContext, users: User[]): Promise<PersonView[]>;
export declare function personView(ctx: AppContext, user: User): Promise<PersonView>;
export declare function relationshipOf(ctx: AppContext, viewerId: number, otherId: number): Promise<Relationship>;

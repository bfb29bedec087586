import { friendMethods } from './friend.ts';
import { mailMethods } from './mail.ts';
import { notificationMethods } from './notification.ts';
import { photoMethods } from './photo.ts';
import { MethodRegistry } from './registry.ts';
import { userMethods } from './user.ts';

/** Every method of api.php. */
export const createMethodRegistry = () =>
  new MethodRegistry([...friendMethods, ...mailMethods, ...notificationMethods, ...photoMethods, ...userMethods]);

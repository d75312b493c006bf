/** TypeBox schemas of the provider notification routes. */
import { Type } from 'typebox';

/** Whatever the provider posts; its claims are read by the connector (notificationClaims) and verified with the provider. */
export const NotificationBody = Type.Unsafe<unknown>({ type: 'object', description: "the provider's notification, as its documentation defines it" });

export const NotificationReceipt = Type.Object({
  received: Type.Integer({ description: 'payment ids stored for verification with the provider' }),
}, { $id: 'NotificationReceipt' });

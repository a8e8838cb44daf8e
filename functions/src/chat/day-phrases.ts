/**
 * Words that name days, for telling a question's unknown names from calendar words ("since
 * Monday" names no subject), and the escaping of text put in an expression. The days themselves
 * are read by days.ts.
 */
export const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
export const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

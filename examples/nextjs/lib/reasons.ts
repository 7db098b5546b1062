/** The reason this app gives its time-picker interrupt; the page maps it to TimePickerCard. */
export const PICK_TIME_REASON = 'example:pick_time';

/** The timetable's weekday names as Intl's weekday numbers (0 = Sunday). */
export const WEEKDAY_INDEX = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
} as const satisfies Record<string, number>;

/** Product name shown on the sign-in screen, in the title and in the dashboard footer. */
export const BRAND = 'Institute & Clinic Back Office';
export const BRAND_SHORT = 'Back Office';

import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its issue builds the screen (spec section 2, Courses); the route file stays as is. */
export function CoursesPage() {
  return (
    <PlaceholderPage title="Courses" />
  );
}

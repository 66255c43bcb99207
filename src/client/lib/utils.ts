import type { FormEvent } from 'react';
import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/** A form's onSubmit for forms handled in script: the page stays where it is and `handle` runs. */
export function onSubmitted(handle: () => unknown) {
  return (e: FormEvent) => {
    e.preventDefault();
    void handle();
  };
}

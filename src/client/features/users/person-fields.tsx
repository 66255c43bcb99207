import type { FieldValues, Path } from 'react-hook-form';
import { FormField } from '@/components/form-field';
import { NativeSelect, choicesOf } from '@/components/native-select';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { displayPhone, GENDER_LABELS, GENDERS, type EmergencyContact } from '@shared/schemas/person';

/** The personal details as a form holds them: text in every field, blank for not set. */
export interface PersonDraft {
  phone: string;
  address: string;
  nic: string;
  dateOfBirth: string;
  gender: '' | (typeof GENDERS)[number];
  emergencyContact: { name: string; relation: string; phone: string };
  guardianPhone: string;
}

export const EMPTY_PERSON: PersonDraft = {
  phone: '',
  address: '',
  nic: '',
  dateOfBirth: '',
  gender: '',
  emergencyContact: { name: '', relation: '', phone: '' },
  guardianPhone: '',
};

/** A stored user's details as a draft: phones in the local form the desk types them in. */
export function personDraftOf(u: {
  phone: string | null;
  address: string | null;
  nic: string | null;
  dateOfBirth: string | null;
  gender: PersonDraft['gender'] | null;
  emergencyContact: EmergencyContact | null;
  guardianPhone?: string;
}): PersonDraft {
  return {
    phone: displayPhone(u.phone),
    address: u.address ?? '',
    nic: u.nic ?? '',
    dateOfBirth: u.dateOfBirth ?? '',
    gender: u.gender ?? '',
    emergencyContact: {
      name: u.emergencyContact?.name ?? '',
      relation: u.emergencyContact?.relation ?? '',
      phone: displayPhone(u.emergencyContact?.phone),
    },
    guardianPhone: displayPhone(u.guardianPhone),
  };
}

/**
 * Phone, NIC, birth day, gender, address and the emergency contact (docs/users.md#personal-details),
 * for any form whose schema has these fields: Add User and the user details' edit.
 */
export function PersonFields<T extends FieldValues>() {
  const name = (n: string) => n as Path<T>;
  return (
    <>
      <div className="grid gap-5 sm:grid-cols-2 sm:gap-4">
        <FormField<T> name={name('phone')} label="Phone" hint="Local (077 123 4567) or with +country code.">
          {(field) => <Input {...field} type="tel" autoComplete="off" maxLength={30} />}
        </FormField>
        <FormField<T> name={name('nic')} label="NIC" hint="9 digits and V or X, or 12 digits.">
          {(field) => <Input {...field} autoComplete="off" maxLength={20} />}
        </FormField>
        <FormField<T> name={name('dateOfBirth')} label="Date of birth">
          {(field) => <Input {...field} type="date" min="1900-01-01" max="2100-12-31" />}
        </FormField>
        <FormField<T> name={name('gender')} label="Gender">
          {(field) => <NativeSelect {...field} empty="Not given" choices={choicesOf(GENDERS, GENDER_LABELS)} />}
        </FormField>
      </div>
      <FormField<T> name={name('address')} label="Address">
        {(field) => <Textarea {...field} maxLength={300} rows={2} />}
      </FormField>
      <fieldset className="grid gap-4 rounded-md border p-4">
        <legend className="px-1 text-sm font-medium">Guardian or emergency contact</legend>
        <div className="grid gap-5 sm:grid-cols-3 sm:gap-4">
          <FormField<T> name={name('emergencyContact.name')} label="Contact name">
            {(field) => <Input {...field} maxLength={100} autoComplete="off" />}
          </FormField>
          <FormField<T> name={name('emergencyContact.relation')} label="Relation">
            {(field) => <Input {...field} maxLength={50} autoComplete="off" placeholder="Mother, guardian…" />}
          </FormField>
          <FormField<T> name={name('emergencyContact.phone')} label="Contact phone">
            {(field) => <Input {...field} type="tel" maxLength={30} autoComplete="off" />}
          </FormField>
        </div>
        <FormField<T>
          name={name('guardianPhone')}
          label="Guardian phone"
          hint="A student's absence notices by SMS go to this number when it is set."
        >
          {(field) => <Input {...field} type="tel" maxLength={30} autoComplete="off" className="sm:max-w-xs" />}
        </FormField>
      </fieldset>
    </>
  );
}

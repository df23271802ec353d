import { Hint, Input, Label, Select } from '../../components/ui/field';
import { LAST_DAY_OF_MONTH, WEEKDAYS, choiceInWords, scheduleToSpec, type Frequency, type ScheduleChoice } from './schedule';

const DAYS = Array.from({ length: LAST_DAY_OF_MONTH }, (_, i) => i + 1);

/**
 * When a monitor runs, in words: how often, which weekday or day of the month, at what
 * time, in the browser's time zone; with the cron expression it becomes.
 */
export function ScheduleFields({ idPrefix, value, onChange }: { idPrefix: string; value: ScheduleChoice; onChange: (value: ScheduleChoice) => void }) {
  const set = (patch: Partial<ScheduleChoice>) => onChange({ ...value, ...patch });
  const spec = scheduleToSpec(value);
  return (
    <div>
      <div className="grid gap-3 sm:grid-cols-3">
        <div>
          <Label htmlFor={`${idPrefix}-frequency`}>Runs</Label>
          <Select id={`${idPrefix}-frequency`} className="mt-1.5" value={value.frequency} onChange={(e) => set({ frequency: e.target.value as Frequency })}>
            <option value="daily">Daily</option>
            <option value="weekly">Weekly</option>
            <option value="monthly">Monthly</option>
          </Select>
        </div>
        {value.frequency === 'weekly' && (
          <div>
            <Label htmlFor={`${idPrefix}-weekday`}>On</Label>
            <Select id={`${idPrefix}-weekday`} className="mt-1.5" value={value.weekday} onChange={(e) => set({ weekday: Number(e.target.value) })}>
              {WEEKDAYS.map((day, index) => (
                <option key={day} value={index}>
                  {day}
                </option>
              ))}
            </Select>
          </div>
        )}
        {value.frequency === 'monthly' && (
          <div>
            <Label htmlFor={`${idPrefix}-day`}>On day</Label>
            <Select id={`${idPrefix}-day`} className="mt-1.5" value={value.dayOfMonth} onChange={(e) => set({ dayOfMonth: Number(e.target.value) })}>
              {DAYS.map((day) => (
                <option key={day} value={day}>
                  {day}
                </option>
              ))}
            </Select>
          </div>
        )}
        <div>
          <Label htmlFor={`${idPrefix}-time`}>At</Label>
          <Input id={`${idPrefix}-time`} type="time" className="mt-1.5" value={value.time} onChange={(e) => set({ time: e.target.value })} required />
        </div>
      </div>
      <Hint>
        {spec ? `${choiceInWords(value)}, ${value.timeZone} time` : 'Choose a time'}
        {spec && <span> (cron {spec.cron})</span>}
      </Hint>
    </div>
  );
}

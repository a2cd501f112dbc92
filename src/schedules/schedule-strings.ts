/**
 * What Wrench says about schedules, in each thread language (src/slack/strings/ takes these as its `schedules`). Texts
 * are Slack mrkdwn; times come formatted in the person's time zone.
 */
/** Why a schedule phrase could not be made into a cron pattern: said in the requester's language. */
export type ScheduleReason =
  | { kind: 'time'; time: string }
  | { kind: 'cron'; cron: string; detail: string }
  | { kind: 'allDay'; when: string }
  | { kind: 'interval'; when: string; most: number }
  | { kind: 'monthDay'; day: number }
  | { kind: 'period'; when: string };

export interface ScheduleStrings {
  /** Why it is not a schedule, put into `notUnderstood` (cron-parser's own words stay English). */
  problem: (reason: ScheduleReason) => string;
  proposal: (when: string, repository: string, instruction: string) => string;
  nextRuns: (timeZone: string) => string;
  confirm: string;
  cancel: string;
  confirmed: (user: string, id: string) => string;
  cancelled: (user: string) => string;
  onlyRequesterConfirms: string;
  proposalGone: string;
  notUnderstood: (problem: string) => string;
  tooOften: (seconds: number, minimum: number) => string;
  runMessage: (id: string, when: string, instruction: string) => string;
  runStarted: (time: string, link: string) => string;
  skipped: (time: string) => string;
  /** Said with an occurrence taken late: when it was due, when a process took it. */
  lateRun: (due: string, taken: string) => string;
  /** Said with an occurrence after some that no run was made for: how many, the first one's due time. */
  skippedBefore: (skipped: number, first: string) => string;
  pausedAfterFailures: (count: number) => string;
  configIntro: (id: string, when: string, timeZone: string, instruction: string) => string;
  listTitle: string;
  listEmpty: string;
  listLine: (id: string, state: string, when: string, timeZone: string, channel: string, instruction: string, next: string | undefined) => string;
  states: { active: string; paused: string; proposed: string };
  paused: (user: string, id: string) => string;
  resumed: (user: string, id: string, next: string) => string;
  deleted: (user: string, id: string) => string;
  notFound: (id: string) => string;
  notAllowed: string;
  configDelete: string;
  unchanged: (id: string, state: string) => string;
}

export const schedulesEn: ScheduleStrings = {
  problem: (r) =>
    r.kind === 'time'
      ? `"${r.time}" is not a time of day (write 9:00, 17:30 or 5pm)`
      : r.kind === 'cron'
        ? `the cron pattern \`${r.cron}\` is not valid: ${r.detail}`
        : r.kind === 'allDay'
          ? `"${r.when}" runs all day: it takes no time of day`
          : r.kind === 'interval'
            ? `"${r.when}" is not an interval Wrench can schedule (1 to ${r.most})`
            : r.kind === 'monthDay'
              ? `the ${r.day}th is not a day of the month`
              : `"${r.when}" is not a period Wrench can schedule`,
  proposal: (when, repository, instruction) => `:repeat: *Schedule on ${repository}*: _${when}_\n>${instruction}`,
  nextRuns: (timeZone) => `Next runs (${timeZone}):`,
  confirm: 'Confirm schedule',
  cancel: 'Cancel',
  confirmed: (user, id) =>
    `:white_check_mark: <@${user}> confirmed: this is *schedule ${id}*. Each run gets its own thread in this channel; this thread hears when one starts.`,
  cancelled: (user) => `<@${user}> cancelled this schedule; nothing will run.`,
  onlyRequesterConfirms: 'Only the person who asked for this schedule, or an admin, can confirm or cancel it.',
  proposalGone: 'This schedule is no longer waiting for a confirmation.',
  notUnderstood: (problem) => `I read this as a schedule, but ${problem}. Nothing was scheduled.`,
  tooOften: (seconds, minimum) => `That would run every ${seconds} s; schedules made in Slack run at most every ${minimum} s. Nothing was scheduled.`,
  runMessage: (id, when, instruction) => `:repeat: Scheduled run of *schedule ${id}* (_${when}_):\n>${instruction}`,
  runStarted: (time, link) => `:arrow_forward: The run due ${time} started: ${link}`,
  skipped: (time) => `:fast_forward: Skipped the run due ${time}: the previous run is still going.`,
  lateRun: (due, taken) => `Run late, once: due ${due}, taken ${taken}.`,
  skippedBefore: (skipped, first) =>
    `${skipped === 1 ? `The occurrence due ${first} was` : `${skipped} earlier occurrences (the first due ${first}) were`} skipped: no Wrench process took ${skipped === 1 ? 'it' : 'them'} when due. Missed occurrences are not made up.`,
  pausedAfterFailures: (count) =>
    `:double_vertical_bar: Paused: the last ${count} runs failed (their threads say why). Fix the cause, then say \`@wrench resume schedule N\`.`,
  configIntro: (id, when, timeZone, instruction) => `:repeat: *Schedule ${id}* from wrench.config.yml (_${when}_, ${timeZone}):\n>${instruction}`,
  listTitle: '*Schedules*',
  listEmpty: 'No schedules yet. Ask for one like this: `@wrench every Monday at 9:00, update the npm dependencies and open a PR`.',
  listLine: (id, state, when, timeZone, channel, instruction, next) =>
    `• *${id}* (${state}) _${when}_, ${timeZone}, <#${channel}>: ${instruction}${next ? ` — next: ${next}` : ''}`,
  states: { active: 'active', paused: 'paused', proposed: 'waiting for confirmation' },
  paused: (user, id) => `:double_vertical_bar: <@${user}> paused schedule ${id}.`,
  resumed: (user, id, next) => `:arrow_forward: <@${user}> resumed schedule ${id}; next run ${next}.`,
  deleted: (user, id) => `:wastebasket: <@${user}> deleted schedule ${id}.`,
  notFound: (id) => `There is no schedule ${id}. \`@wrench list schedules\` shows them.`,
  notAllowed: 'Only the person who made this schedule, an admin, or its owner in wrench.config.yml can change it.',
  configDelete: 'This schedule comes from wrench.config.yml: remove it there (it can be paused from here).',
  unchanged: (id, state) => `Schedule ${id} is already ${state}.`,
};

export const schedulesDe: ScheduleStrings = {
  problem: (r) =>
    r.kind === 'time'
      ? `„${r.time}“ ist keine Uhrzeit (schreib 9:00, 17:30 oder 17 Uhr)`
      : r.kind === 'cron'
        ? `das Cron-Muster \`${r.cron}\` ist ungültig: ${r.detail}`
        : r.kind === 'allDay'
          ? `„${r.when}“ läuft den ganzen Tag: Da passt keine Uhrzeit dazu`
          : r.kind === 'interval'
            ? `„${r.when}“ ist kein Intervall, das Wrench einplanen kann (1 bis ${r.most})`
            : r.kind === 'monthDay'
              ? `der ${r.day}. ist kein Tag des Monats`
              : `„${r.when}“ ist kein Zeitraum, den Wrench einplanen kann`,
  proposal: (when, repository, instruction) => `:repeat: *Zeitplan für ${repository}*: _${when}_\n>${instruction}`,
  nextRuns: (timeZone) => `Nächste Läufe (${timeZone}):`,
  confirm: 'Zeitplan bestätigen',
  cancel: 'Abbrechen',
  confirmed: (user, id) =>
    `:white_check_mark: <@${user}> hat bestätigt: Das ist *Zeitplan ${id}*. Jeder Lauf bekommt einen eigenen Thread in diesem Channel; dieser Thread erfährt, wann einer startet.`,
  cancelled: (user) => `<@${user}> hat diesen Zeitplan abgebrochen; es läuft nichts.`,
  onlyRequesterConfirms: 'Nur wer diesen Zeitplan angefragt hat, oder ein Admin, kann ihn bestätigen oder abbrechen.',
  proposalGone: 'Dieser Zeitplan wartet nicht mehr auf eine Bestätigung.',
  notUnderstood: (problem) => `Ich habe das als Zeitplan gelesen, aber ${problem}. Es wurde nichts eingeplant.`,
  tooOften: (seconds, minimum) => `Das liefe alle ${seconds} s; in Slack angelegte Zeitpläne laufen höchstens alle ${minimum} s. Es wurde nichts eingeplant.`,
  runMessage: (id, when, instruction) => `:repeat: Geplanter Lauf von *Zeitplan ${id}* (_${when}_):\n>${instruction}`,
  runStarted: (time, link) => `:arrow_forward: Der für ${time} fällige Lauf hat begonnen: ${link}`,
  skipped: (time) => `:fast_forward: Den für ${time} fälligen Lauf übersprungen: Der vorige Lauf läuft noch.`,
  lateRun: (due, taken) => `Verspätet, einmal: fällig ${due}, übernommen ${taken}.`,
  skippedBefore: (skipped, first) =>
    `${skipped === 1 ? `Der für ${first} fällige Lauf wurde` : `${skipped} frühere Läufe (der erste fällig ${first}) wurden`} übersprungen: Kein Wrench-Prozess hat ${skipped === 1 ? 'ihn' : 'sie'} bei Fälligkeit übernommen. Verpasste Läufe werden nicht nachgeholt.`,
  pausedAfterFailures: (count) =>
    `:double_vertical_bar: Pausiert: Die letzten ${count} Läufe sind fehlgeschlagen (ihre Threads sagen, warum). Behebe die Ursache und sag dann \`@wrench resume schedule N\`.`,
  configIntro: (id, when, timeZone, instruction) => `:repeat: *Zeitplan ${id}* aus wrench.config.yml (_${when}_, ${timeZone}):\n>${instruction}`,
  listTitle: '*Zeitpläne*',
  listEmpty: 'Noch keine Zeitpläne. Frag so danach: `@wrench every Monday at 9:00, update the npm dependencies and open a PR`.',
  listLine: (id, state, when, timeZone, channel, instruction, next) =>
    `• *${id}* (${state}) _${when}_, ${timeZone}, <#${channel}>: ${instruction}${next ? ` — nächster: ${next}` : ''}`,
  states: { active: 'aktiv', paused: 'pausiert', proposed: 'wartet auf Bestätigung' },
  paused: (user, id) => `:double_vertical_bar: <@${user}> hat Zeitplan ${id} pausiert.`,
  resumed: (user, id, next) => `:arrow_forward: <@${user}> hat Zeitplan ${id} fortgesetzt; nächster Lauf ${next}.`,
  deleted: (user, id) => `:wastebasket: <@${user}> hat Zeitplan ${id} gelöscht.`,
  notFound: (id) => `Es gibt keinen Zeitplan ${id}. \`@wrench list schedules\` zeigt sie.`,
  notAllowed: 'Nur wer diesen Zeitplan angelegt hat, ein Admin oder sein Owner in wrench.config.yml kann ihn ändern.',
  configDelete: 'Dieser Zeitplan stammt aus wrench.config.yml: Entferne ihn dort (pausieren geht von hier).',
  unchanged: (id, state) => `Zeitplan ${id} ist bereits ${state}.`,
};

export const schedulesEs: ScheduleStrings = {
  problem: (r) =>
    r.kind === 'time'
      ? `«${r.time}» no es una hora del día (escribe 9:00, 17:30 o 5pm)`
      : r.kind === 'cron'
        ? `el patrón cron \`${r.cron}\` no es válido: ${r.detail}`
        : r.kind === 'allDay'
          ? `«${r.when}» se ejecuta todo el día: no admite una hora`
          : r.kind === 'interval'
            ? `«${r.when}» no es un intervalo que Wrench pueda programar (de 1 a ${r.most})`
            : r.kind === 'monthDay'
              ? `el día ${r.day} no es un día del mes`
              : `«${r.when}» no es un periodo que Wrench pueda programar`,
  proposal: (when, repository, instruction) => `:repeat: *Programación en ${repository}*: _${when}_\n>${instruction}`,
  nextRuns: (timeZone) => `Próximas ejecuciones (${timeZone}):`,
  confirm: 'Confirmar programación',
  cancel: 'Cancelar',
  confirmed: (user, id) =>
    `:white_check_mark: <@${user}> confirmó: esta es la *programación ${id}*. Cada ejecución tiene su propio hilo en este canal; este hilo avisa cuando empieza una.`,
  cancelled: (user) => `<@${user}> canceló esta programación; no se ejecutará nada.`,
  onlyRequesterConfirms: 'Solo quien pidió esta programación, o un admin, puede confirmarla o cancelarla.',
  proposalGone: 'Esta programación ya no espera confirmación.',
  notUnderstood: (problem) => `Lo leí como una programación, pero ${problem}. No se programó nada.`,
  tooOften: (seconds, minimum) =>
    `Eso se ejecutaría cada ${seconds} s; las programaciones creadas en Slack se ejecutan como mucho cada ${minimum} s. No se programó nada.`,
  runMessage: (id, when, instruction) => `:repeat: Ejecución programada de la *programación ${id}* (_${when}_):\n>${instruction}`,
  runStarted: (time, link) => `:arrow_forward: La ejecución prevista para ${time} empezó: ${link}`,
  skipped: (time) => `:fast_forward: Omití la ejecución prevista para ${time}: la anterior sigue en marcha.`,
  lateRun: (due, taken) => `Con retraso, una sola vez: prevista para ${due}, tomada ${taken}.`,
  skippedBefore: (skipped, first) =>
    `${skipped === 1 ? `Se omitió la ejecución prevista para ${first}` : `Se omitieron ${skipped} ejecuciones anteriores (la primera prevista para ${first})`}: ningún proceso de Wrench ${skipped === 1 ? 'la tomó' : 'las tomó'} a su hora. Las ejecuciones perdidas no se recuperan.`,
  pausedAfterFailures: (count) =>
    `:double_vertical_bar: En pausa: las últimas ${count} ejecuciones fallaron (sus hilos dicen por qué). Corrige la causa y luego di \`@wrench resume schedule N\`.`,
  configIntro: (id, when, timeZone, instruction) => `:repeat: *Programación ${id}* de wrench.config.yml (_${when}_, ${timeZone}):\n>${instruction}`,
  listTitle: '*Programaciones*',
  listEmpty: 'Aún no hay programaciones. Pide una así: `@wrench every Monday at 9:00, update the npm dependencies and open a PR`.',
  listLine: (id, state, when, timeZone, channel, instruction, next) =>
    `• *${id}* (${state}) _${when}_, ${timeZone}, <#${channel}>: ${instruction}${next ? ` — próxima: ${next}` : ''}`,
  states: { active: 'activa', paused: 'en pausa', proposed: 'esperando confirmación' },
  paused: (user, id) => `:double_vertical_bar: <@${user}> pausó la programación ${id}.`,
  resumed: (user, id, next) => `:arrow_forward: <@${user}> reanudó la programación ${id}; próxima ejecución ${next}.`,
  deleted: (user, id) => `:wastebasket: <@${user}> eliminó la programación ${id}.`,
  notFound: (id) => `No existe la programación ${id}. \`@wrench list schedules\` las muestra.`,
  notAllowed: 'Solo quien creó esta programación, un admin o su owner en wrench.config.yml puede cambiarla.',
  configDelete: 'Esta programación viene de wrench.config.yml: quítala allí (desde aquí se puede pausar).',
  unchanged: (id, state) => `La programación ${id} ya está ${state}.`,
};

export const schedulesFr: ScheduleStrings = {
  problem: (r) =>
    r.kind === 'time'
      ? `« ${r.time} » n'est pas une heure de la journée (écrivez 9:00, 17:30 ou 17h)`
      : r.kind === 'cron'
        ? `le motif cron \`${r.cron}\` n'est pas valide : ${r.detail}`
        : r.kind === 'allDay'
          ? `« ${r.when} » s'exécute toute la journée : il ne prend pas d'heure`
          : r.kind === 'interval'
            ? `« ${r.when} » n'est pas un intervalle que Wrench peut planifier (de 1 à ${r.most})`
            : r.kind === 'monthDay'
              ? `le ${r.day} n'est pas un jour du mois`
              : `« ${r.when} » n'est pas une période que Wrench peut planifier`,
  proposal: (when, repository, instruction) => `:repeat: *Planification sur ${repository}* : _${when}_\n>${instruction}`,
  nextRuns: (timeZone) => `Prochaines exécutions (${timeZone}) :`,
  confirm: 'Confirmer la planification',
  cancel: 'Annuler',
  confirmed: (user, id) =>
    `:white_check_mark: <@${user}> a confirmé : c'est la *planification ${id}*. Chaque exécution a son propre fil dans ce canal ; ce fil est prévenu quand l'une démarre.`,
  cancelled: (user) => `<@${user}> a annulé cette planification ; rien ne sera exécuté.`,
  onlyRequesterConfirms: 'Seule la personne qui a demandé cette planification, ou un admin, peut la confirmer ou l’annuler.',
  proposalGone: 'Cette planification n’attend plus de confirmation.',
  notUnderstood: (problem) => `J'ai lu ceci comme une planification, mais ${problem}. Rien n'a été planifié.`,
  tooOften: (seconds, minimum) =>
    `Cela s'exécuterait toutes les ${seconds} s ; les planifications créées dans Slack s'exécutent au plus toutes les ${minimum} s. Rien n'a été planifié.`,
  runMessage: (id, when, instruction) => `:repeat: Exécution planifiée de la *planification ${id}* (_${when}_) :\n>${instruction}`,
  runStarted: (time, link) => `:arrow_forward: L'exécution prévue ${time} a démarré : ${link}`,
  skipped: (time) => `:fast_forward: Exécution prévue ${time} sautée : la précédente est toujours en cours.`,
  lateRun: (due, taken) => `En retard, une seule fois : prévue ${due}, prise en charge ${taken}.`,
  skippedBefore: (skipped, first) =>
    `${skipped === 1 ? `L'exécution prévue ${first} a été sautée` : `${skipped} exécutions antérieures (la première prévue ${first}) ont été sautées`} : aucun processus Wrench ne ${skipped === 1 ? "l'a prise" : 'les a prises'} en charge à l'heure. Les exécutions manquées ne sont pas rattrapées.`,
  pausedAfterFailures: (count) =>
    `:double_vertical_bar: En pause : les ${count} dernières exécutions ont échoué (leurs fils disent pourquoi). Corrigez la cause, puis dites \`@wrench resume schedule N\`.`,
  configIntro: (id, when, timeZone, instruction) => `:repeat: *Planification ${id}* de wrench.config.yml (_${when}_, ${timeZone}) :\n>${instruction}`,
  listTitle: '*Planifications*',
  listEmpty: 'Aucune planification pour l’instant. Demandez-en une ainsi : `@wrench every Monday at 9:00, update the npm dependencies and open a PR`.',
  listLine: (id, state, when, timeZone, channel, instruction, next) =>
    `• *${id}* (${state}) _${when}_, ${timeZone}, <#${channel}> : ${instruction}${next ? ` — prochaine : ${next}` : ''}`,
  states: { active: 'activée', paused: 'en pause', proposed: 'en attente de confirmation' },
  paused: (user, id) => `:double_vertical_bar: <@${user}> a mis en pause la planification ${id}.`,
  resumed: (user, id, next) => `:arrow_forward: <@${user}> a repris la planification ${id} ; prochaine exécution ${next}.`,
  deleted: (user, id) => `:wastebasket: <@${user}> a supprimé la planification ${id}.`,
  notFound: (id) => `Il n'y a pas de planification ${id}. \`@wrench list schedules\` les affiche.`,
  notAllowed: 'Seule la personne qui a créé cette planification, un admin ou son owner dans wrench.config.yml peut la modifier.',
  configDelete: 'Cette planification vient de wrench.config.yml : retirez-la là-bas (on peut la mettre en pause d’ici).',
  unchanged: (id, state) => `La planification ${id} est déjà ${state}.`,
};

export const schedulesPt: ScheduleStrings = {
  problem: (r) =>
    r.kind === 'time'
      ? `"${r.time}" não é um horário do dia (escreva 9:00, 17:30 ou 17h)`
      : r.kind === 'cron'
        ? `o padrão cron \`${r.cron}\` não é válido: ${r.detail}`
        : r.kind === 'allDay'
          ? `"${r.when}" roda o dia todo: não leva horário`
          : r.kind === 'interval'
            ? `"${r.when}" não é um intervalo que o Wrench consiga agendar (de 1 a ${r.most})`
            : r.kind === 'monthDay'
              ? `o dia ${r.day} não é um dia do mês`
              : `"${r.when}" não é um período que o Wrench consiga agendar`,
  proposal: (when, repository, instruction) => `:repeat: *Agendamento em ${repository}*: _${when}_\n>${instruction}`,
  nextRuns: (timeZone) => `Próximas execuções (${timeZone}):`,
  confirm: 'Confirmar agendamento',
  cancel: 'Cancelar',
  confirmed: (user, id) =>
    `:white_check_mark: <@${user}> confirmou: este é o *agendamento ${id}*. Cada execução ganha sua própria thread neste canal; esta thread avisa quando uma começa.`,
  cancelled: (user) => `<@${user}> cancelou este agendamento; nada será executado.`,
  onlyRequesterConfirms: 'Só quem pediu este agendamento, ou um admin, pode confirmá-lo ou cancelá-lo.',
  proposalGone: 'Este agendamento não está mais esperando confirmação.',
  notUnderstood: (problem) => `Li isto como um agendamento, mas ${problem}. Nada foi agendado.`,
  tooOften: (seconds, minimum) => `Isso rodaria a cada ${seconds} s; agendamentos criados no Slack rodam no máximo a cada ${minimum} s. Nada foi agendado.`,
  runMessage: (id, when, instruction) => `:repeat: Execução agendada do *agendamento ${id}* (_${when}_):\n>${instruction}`,
  runStarted: (time, link) => `:arrow_forward: A execução prevista para ${time} começou: ${link}`,
  skipped: (time) => `:fast_forward: Pulei a execução prevista para ${time}: a anterior ainda está em andamento.`,
  lateRun: (due, taken) => `Com atraso, uma única vez: prevista para ${due}, assumida ${taken}.`,
  skippedBefore: (skipped, first) =>
    `${skipped === 1 ? `A execução prevista para ${first} foi pulada` : `${skipped} execuções anteriores (a primeira prevista para ${first}) foram puladas`}: nenhum processo do Wrench ${skipped === 1 ? 'a assumiu' : 'as assumiu'} no horário. Execuções perdidas não são repostas.`,
  pausedAfterFailures: (count) =>
    `:double_vertical_bar: Pausado: as últimas ${count} execuções falharam (as threads delas dizem por quê). Corrija a causa e depois diga \`@wrench resume schedule N\`.`,
  configIntro: (id, when, timeZone, instruction) => `:repeat: *Agendamento ${id}* do wrench.config.yml (_${when}_, ${timeZone}):\n>${instruction}`,
  listTitle: '*Agendamentos*',
  listEmpty: 'Ainda não há agendamentos. Peça um assim: `@wrench every Monday at 9:00, update the npm dependencies and open a PR`.',
  listLine: (id, state, when, timeZone, channel, instruction, next) =>
    `• *${id}* (${state}) _${when}_, ${timeZone}, <#${channel}>: ${instruction}${next ? ` — próxima: ${next}` : ''}`,
  states: { active: 'ativo', paused: 'pausado', proposed: 'aguardando confirmação' },
  paused: (user, id) => `:double_vertical_bar: <@${user}> pausou o agendamento ${id}.`,
  resumed: (user, id, next) => `:arrow_forward: <@${user}> retomou o agendamento ${id}; próxima execução ${next}.`,
  deleted: (user, id) => `:wastebasket: <@${user}> excluiu o agendamento ${id}.`,
  notFound: (id) => `Não existe o agendamento ${id}. \`@wrench list schedules\` mostra todos.`,
  notAllowed: 'Só quem criou este agendamento, um admin ou o owner dele no wrench.config.yml pode alterá-lo.',
  configDelete: 'Este agendamento vem do wrench.config.yml: remova-o lá (daqui dá para pausar).',
  unchanged: (id, state) => `O agendamento ${id} já está ${state}.`,
};

export const schedulesJa: ScheduleStrings = {
  problem: (r) =>
    r.kind === 'time'
      ? `「${r.time}」は時刻として読めません（9:00、17:30、午後5時のように書いてください）`
      : r.kind === 'cron'
        ? `cron パターン \`${r.cron}\` が正しくありません（${r.detail}）`
        : r.kind === 'allDay'
          ? `「${r.when}」は一日中実行されるため、時刻は指定できません`
          : r.kind === 'interval'
            ? `「${r.when}」は Wrench が登録できる間隔ではありません（1〜${r.most}）`
            : r.kind === 'monthDay'
              ? `${r.day}日は月の日付として正しくありません`
              : `「${r.when}」は Wrench が登録できる周期ではありません`,
  proposal: (when, repository, instruction) => `:repeat: *${repository} のスケジュール*: _${when}_\n>${instruction}`,
  nextRuns: (timeZone) => `次の実行（${timeZone}）:`,
  confirm: 'スケジュールを確定',
  cancel: 'キャンセル',
  confirmed: (user, id) =>
    `:white_check_mark: <@${user}> さんが確定しました。これは *スケジュール ${id}* です。実行ごとにこのチャンネルに専用のスレッドができ、開始はこのスレッドに知らせます。`,
  cancelled: (user) => `<@${user}> さんがこのスケジュールをキャンセルしました。何も実行されません。`,
  onlyRequesterConfirms: 'このスケジュールを確定・キャンセルできるのは、依頼した人か管理者だけです。',
  proposalGone: 'このスケジュールはもう確定を待っていません。',
  notUnderstood: (problem) => `スケジュールとして読みましたが、${problem}。何も登録していません。`,
  tooOften: (seconds, minimum) => `それでは ${seconds} 秒ごとに実行されます。Slack で作るスケジュールの間隔は ${minimum} 秒以上です。何も登録していません。`,
  runMessage: (id, when, instruction) => `:repeat: *スケジュール ${id}* の定期実行（_${when}_）:\n>${instruction}`,
  runStarted: (time, link) => `:arrow_forward: ${time} 予定の実行を開始しました: ${link}`,
  skipped: (time) => `:fast_forward: ${time} 予定の実行を見送りました。前回の実行がまだ続いています。`,
  lateRun: (due, taken) => `遅れて 1 回だけ実行します: 予定 ${due}、開始 ${taken}。`,
  skippedBefore: (skipped, first) =>
    `${skipped === 1 ? `${first} 予定の実行` : `それ以前の ${skipped} 回の実行（最初は ${first} 予定）`}は見送りました。予定時刻にそれを引き受けた Wrench のプロセスがありませんでした。逃した実行の埋め合わせはしません。`,
  pausedAfterFailures: (count) =>
    `:double_vertical_bar: 一時停止しました。直近 ${count} 回の実行が失敗しました（理由は各スレッドにあります）。原因を直してから \`@wrench resume schedule N\` と送ってください。`,
  configIntro: (id, when, timeZone, instruction) => `:repeat: wrench.config.yml の *スケジュール ${id}*（_${when}_、${timeZone}）:\n>${instruction}`,
  listTitle: '*スケジュール*',
  listEmpty: 'スケジュールはまだありません。次のように頼んでください: `@wrench every Monday at 9:00, update the npm dependencies and open a PR`',
  listLine: (id, state, when, timeZone, channel, instruction, next) =>
    `• *${id}*（${state}）_${when}_、${timeZone}、<#${channel}>: ${instruction}${next ? ` — 次回: ${next}` : ''}`,
  states: { active: '有効', paused: '一時停止中', proposed: '確定待ち' },
  paused: (user, id) => `:double_vertical_bar: <@${user}> さんがスケジュール ${id} を一時停止しました。`,
  resumed: (user, id, next) => `:arrow_forward: <@${user}> さんがスケジュール ${id} を再開しました。次回は ${next} です。`,
  deleted: (user, id) => `:wastebasket: <@${user}> さんがスケジュール ${id} を削除しました。`,
  notFound: (id) => `スケジュール ${id} はありません。\`@wrench list schedules\` で一覧を表示できます。`,
  notAllowed: 'このスケジュールを変更できるのは、作成した人、管理者、または wrench.config.yml の owner だけです。',
  configDelete: 'このスケジュールは wrench.config.yml にあります。削除はそちらで行ってください（一時停止はここからできます）。',
  unchanged: (id, state) => `スケジュール ${id} はすでに${state}です。`,
};

export const schedulesZh: ScheduleStrings = {
  problem: (r) =>
    r.kind === 'time'
      ? `“${r.time}”不是一天中的时间（请写 9:00、17:30 或 下午5点）`
      : r.kind === 'cron'
        ? `cron 表达式 \`${r.cron}\` 无效：${r.detail}`
        : r.kind === 'allDay'
          ? `“${r.when}”全天运行，不能再指定时间`
          : r.kind === 'interval'
            ? `“${r.when}”不是 Wrench 能安排的间隔（1 到 ${r.most}）`
            : r.kind === 'monthDay'
              ? `${r.day} 号不是一个月中的日期`
              : `“${r.when}”不是 Wrench 能安排的周期`,
  proposal: (when, repository, instruction) => `:repeat: *${repository} 上的定时任务*：_${when}_\n>${instruction}`,
  nextRuns: (timeZone) => `接下来的运行（${timeZone}）：`,
  confirm: '确认定时任务',
  cancel: '取消',
  confirmed: (user, id) => `:white_check_mark: <@${user}> 已确认：这是 *定时任务 ${id}*。每次运行都会在本频道开一个新会话；开始时会在这里通知。`,
  cancelled: (user) => `<@${user}> 取消了这个定时任务；不会运行任何内容。`,
  onlyRequesterConfirms: '只有提出这个定时任务的人或管理员可以确认或取消它。',
  proposalGone: '这个定时任务已不再等待确认。',
  notUnderstood: (problem) => `我把这读作定时任务，但${problem}。没有创建任何定时任务。`,
  tooOften: (seconds, minimum) => `这样会每 ${seconds} 秒运行一次；在 Slack 中创建的定时任务最多每 ${minimum} 秒运行一次。没有创建任何定时任务。`,
  runMessage: (id, when, instruction) => `:repeat: *定时任务 ${id}* 的计划运行（_${when}_）：\n>${instruction}`,
  runStarted: (time, link) => `:arrow_forward: 计划于 ${time} 的运行已开始：${link}`,
  skipped: (time) => `:fast_forward: 跳过了计划于 ${time} 的运行：上一次运行仍在进行。`,
  lateRun: (due, taken) => `延迟运行，仅一次：计划于 ${due}，于 ${taken} 开始。`,
  skippedBefore: (skipped, first) =>
    `${skipped === 1 ? `计划于 ${first} 的运行` : `之前的 ${skipped} 次运行（第一次计划于 ${first}）`}已跳过：到期时没有 Wrench 进程接手。错过的运行不会补做。`,
  pausedAfterFailures: (count) =>
    `:double_vertical_bar: 已暂停：最近 ${count} 次运行都失败了（原因见各自的会话）。修复原因后，请说 \`@wrench resume schedule N\`。`,
  configIntro: (id, when, timeZone, instruction) => `:repeat: 来自 wrench.config.yml 的 *定时任务 ${id}*（_${when}_，${timeZone}）：\n>${instruction}`,
  listTitle: '*定时任务*',
  listEmpty: '还没有定时任务。可以这样创建：`@wrench every Monday at 9:00, update the npm dependencies and open a PR`。',
  listLine: (id, state, when, timeZone, channel, instruction, next) =>
    `• *${id}*（${state}）_${when}_，${timeZone}，<#${channel}>：${instruction}${next ? ` — 下次：${next}` : ''}`,
  states: { active: '启用', paused: '已暂停', proposed: '等待确认' },
  paused: (user, id) => `:double_vertical_bar: <@${user}> 暂停了定时任务 ${id}。`,
  resumed: (user, id, next) => `:arrow_forward: <@${user}> 恢复了定时任务 ${id}；下次运行 ${next}。`,
  deleted: (user, id) => `:wastebasket: <@${user}> 删除了定时任务 ${id}。`,
  notFound: (id) => `没有定时任务 ${id}。\`@wrench list schedules\` 会列出它们。`,
  notAllowed: '只有创建这个定时任务的人、管理员或 wrench.config.yml 中的 owner 可以修改它。',
  configDelete: '这个定时任务来自 wrench.config.yml：请在那里删除（可以在这里暂停）。',
  unchanged: (id, state) => `定时任务 ${id} 已经是${state}状态。`,
};

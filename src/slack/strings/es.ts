import type { ThreadStrings } from './en.js';

/** Spanish; what is missing here is said in English. */
export const es: Partial<ThreadStrings> = {
  categories: {
    testing: 'Pruebas',
    'data-analysis': 'Análisis de datos',
    'web-scraping': 'Extracción web',
    'code-review': 'Revisión de código',
    'bug-fixing': 'Corrección de error',
    feature: 'Funcionalidad',
    refactoring: 'Refactorización',
    'incident-triage': 'Triaje de incidente',
  },
  complexity: { simple: 'sencilla', medium: 'media', complex: 'compleja' },
  taskOn: (category, repository, status) => `Tarea de ${category} en ${repository}: ${status}`,
  where: 'Dónde:',
  constraints: 'Restricciones:',
  doneWhen: 'Terminado cuando:',
  cancel: 'Cancelar',
  queued: (position) => `:hourglass_flowing_sand: En cola${position ? ` (posición ${position})` : ''}`,
  queuedBehindThread: ':hourglass_flowing_sand: En cola detrás de la tarea que ya está en marcha en este hilo',
  addDetails: 'Añadir detalles',
  startAnyway: 'Empezar igualmente',
  needMore: 'Antes de empezar necesito un poco más para no adivinar:',
  answerHere: 'Responde aquí en el hilo o pulsa *Añadir detalles*.',
  questionIntro: (requester) => `<@${requester}> Tengo una pregunta antes de seguir:`,
  decideYourself: 'Decide tú',
  asked: (requester) => `<@${requester}> Pregunté:`,
  answered: (by, answer) => `<@${by}> respondió: ${answer}`,
};

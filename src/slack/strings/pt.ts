import { schedulesPt } from '../../schedules/schedule-strings.js';
import { answerPt } from '../../answers/answer-strings.js';
import { codeList, fetchHeld } from '../../error-words.js';
import type { SecretKind } from '../../security/secret-kind.js';
import { setupEgressLine } from '../../verification/render-verification.js';
import type { EgressStrings } from '../../verification/verification-strings.js';
import type { Catalogue } from './en.js';

/** A secretlint rule's credential ("algo que parece …"). */
const SECRET_RULES_PT: Record<string, string> = {
  github: 'um token do GitHub',
  slack: 'um token ou uma URL de webhook do Slack',
  anthropic: 'uma chave de API da Anthropic',
  openai: 'uma chave de API da OpenAI',
  aws: 'uma credencial da AWS',
  gcp: 'uma credencial do Google Cloud',
  privatekey: 'uma chave privada',
  'secp256k1-privatekey': 'uma chave privada',
  basicauth: 'uma senha em uma URL',
  'database-connection-string': 'uma senha de banco de dados',
  npm: 'um token do npm',
  sendgrid: 'uma chave de API do SendGrid',
  stripe: 'uma chave do Stripe',
};

/** What the egress policy refused during setup (said in the checks and in the progress line). */
const egressWords: EgressStrings = {
  egressNotAllowed: (target) => `${target}: não está na lista de destinos permitidos (sandbox.egress.allow)`,
  egressMetadata: (target, address) => `${target}: resolve para ${address}, o endereço de metadados da nuvem`,
  egressNonPublic: (target, address) => `${target}: resolve para ${address}, que não é um endereço público (loopback, privado ou link-local)`,
  egressUpstreamRefused: (target, upstream, answer) => `${target}: o proxy de saída ${upstream} respondeu ${answer}`,
  egressUpstreamUnreachable: (target, upstream, answer) => `${target}: não foi possível conectar ao proxy de saída ${upstream} (${answer})`,
  setupCouldNotReach: (refusal, more) =>
    `A instalação não conseguiu acessar este destino: ${refusal}${more.length ? ` (e mais ${more.length} recusados: ${more.join(', ')})` : ''}.`,
};

/** How a command ended, after its name: "`npm ci` terminou com o código de saída 1". */
const exit = (timedOut: boolean, exitCode: number | null) => (timedOut ? 'excedeu o tempo limite' : `terminou com o código de saída ${exitCode ?? 'nenhum'}`);

/** The GitHub events a thread can be told Wrench could not act on, with their article. */
const EVENT_WORDS_PT: Record<string, string> = {
  comment: 'o comentário',
  'review-comment': 'o comentário de revisão',
  review: 'a revisão',
  'check-failed': 'o check com falha',
  'check-passed': 'o check que passou',
  'status-failed': 'o status de commit com falha',
  closed: 'o fechamento do pull request',
};

/** Brazilian Portuguese, with "você" (pt-BR and pt-PT both say it); what is missing here is said in English. */
export const pt: Catalogue = {
  categories: {
    testing: 'Testes',
    'data-analysis': 'Análise de dados',
    'web-scraping': 'Coleta de dados da web',
    'code-review': 'Revisão de código',
    'bug-fixing': 'Correção de bug',
    feature: 'Funcionalidade',
    refactoring: 'Refatoração',
    'incident-triage': 'Triagem de incidente',
    question: 'Pergunta',
  },
  complexity: { simple: 'simples', medium: 'média', complex: 'complexa' },
  taskOn: (category, repository, status) => `Tarefa de ${category} em ${repository}: ${status}`,
  where: 'Onde:',
  constraints: 'Restrições:',
  doneWhen: 'Pronto quando:',
  cancel: 'Cancelar',
  queued: (position) => `:hourglass_flowing_sand: Na fila${position ? ` (posição ${position})` : ''}`,
  queuedBehindThread: ':hourglass_flowing_sand: Na fila atrás da execução que já está em andamento nesta thread',
  statusLine: {
    reading: 'está lendo sua solicitação…',
    readingSteps: (repository) => ['Lendo sua solicitação…', `Olhando ${repository}…`],
    waitingForWorker: 'está aguardando um worker livre…',
    // The details it gets begin with "aguardando": "Wrench está aguardando …".
    waitingOn: (detail) => `está ${detail}…`,
  },
  addDetails: 'Adicionar detalhes',
  startAnyway: 'Começar mesmo assim',
  needMore: 'Antes de começar, preciso de um pouco mais de informação para não ter que adivinhar:',
  answerHere: 'Responda aqui na thread ou clique em *Adicionar detalhes*.',
  startingAnyway: (user) => `Começando mesmo assim, a pedido de <@${user}>.`,
  enoughToStart: 'Obrigado, isso é suficiente para começar.',
  requestGone: 'Esta solicitação já foi iniciada ou expirou.',
  requestBusy: 'Alguém está iniciando esta solicitação ou acrescentando detalhes agora mesmo. Se eu perguntar de novo, responda ao novo cartão.',
  replyWhileStarting:
    'Esta solicitação já estava sendo iniciada quando sua mensagem chegou, então ela não foi adicionada. Quando a execução estiver em andamento, responda aqui para repassá-la ao agente ou mencione-me para transformá-la em um acompanhamento.',
  clarifying: {
    target: {
      testing: {
        question: 'O que os testes devem cobrir? Indique o módulo, a função ou o comportamento a testar.',
        placeholder: '`formatBytes` em src/lib/format.ts: 0, 1023, 1024, entrada negativa',
      },
      'code-review': {
        question: 'O que devo revisar? Informe um número ou link de PR, uma branch ou os arquivos.',
        placeholder: 'PR #123 em acme/api',
      },
      'data-analysis': { question: 'Quais dados devo analisar? Indique o arquivo, a tabela ou a exportação.', placeholder: 'data/orders-2026-09.csv' },
      'web-scraping': {
        question: 'De quais sites ou páginas devo coletar dados? Informe as URLs e o que coletar de cada uma.',
        placeholder: 'https://example.com/pricing: nome do plano, preço mensal, moeda',
      },
      refactoring: { question: 'Qual código devo refatorar? Indique os arquivos, o módulo ou as funções.', placeholder: 'src/api/handlers.ts' },
      'bug-fixing': { question: 'Qual parte do produto é afetada?', placeholder: 'a página de pagamento, ao pagar com um cartão salvo' },
      feature: {
        question: 'O que exatamente devo construir, e onde isso deve ficar?',
        placeholder: 'uma opção `--json` para o comando `status` em src/cli/status.ts',
      },
      'incident-triage': { question: 'Qual serviço ou sistema é afetado?', placeholder: 'search-api (repositório acme/search)' },
      question: {
        question: 'O que você quer saber sobre o código? Informe a funcionalidade, o arquivo ou o comportamento.',
        placeholder: 'onde o limite de requisições de /search é configurado',
      },
    },
    failingTests: {
      question: 'Como os testes falham? Cole os nomes dos testes que falham e a asserção ou a saída de erro.',
      placeholder: 'test/cart/total.test.ts "applies coupon" falha na main: expected 10, received 9.99',
    },
    incidentSymptoms: {
      question: 'O que você está observando? Qual serviço, desde quando e com quais sintomas (taxa de erros, códigos de status, alertas, um deploy recente)?',
      placeholder: 'checkout-api: erros 502 em POST /orders desde 14:05 UTC, logo depois da versão 3.4.1',
    },
    observedProblem: {
      question:
        'O que exatamente está errado? Cole a mensagem de erro ou o stack trace, diga o que você esperava e o que aconteceu no lugar, e como reproduzir.',
      placeholder: 'Esperado: uma cobrança por pedido. Real: um clique duplo em “Pagar” cobra o cartão duas vezes.',
    },
    codeToTest: { question: 'Onde está o código a testar? Indique o arquivo ou o diretório.', placeholder: 'src/lib/format.ts' },
    location: {
      question: 'Onde isso acontece? Indique o arquivo, a função, o endpoint ou a página.',
      placeholder: 'src/payments/charge.ts, `createCharge` (POST /checkout)',
    },
    rewriteScope: {
      question: 'Reescrever tudo é demais para uma única tarefa. Por qual módulo ou serviço devo começar, e o que ele deve continuar fazendo?',
      placeholder: 'só o endpoint /search, a mesma API, os testes existentes devem continuar passando',
    },
    scope: (subject) => ({
      question: `${subject ? `“${subject}” é` : 'É'} uma área ampla. Qual primeira parte delimitada devo construir, e o que fica de fora?`,
      placeholder: 'um endpoint de pagamento com Stripe Checkout, ainda sem reembolsos nem assinaturas',
    }),
    requirements: { question: 'O que deve fazer? Liste os requisitos, um por linha.', placeholder: '1. …\n2. …' },
    analysisQuestions: {
      question: 'Quais perguntas a análise deve responder? Indique as métricas ou os recortes e o resultado que você quer.',
      placeholder: 'receita por dia, os 10 produtos com maior receita; uma tabela Markdown e um gráfico de barras em PNG',
    },
    refactoringGoal: {
      question: 'O que deve estar diferente depois? Indique mudanças concretas e as verificações que devem continuar valendo.',
      placeholder: 'um arquivo por recurso em src/api/handlers/, sem mudança de comportamento, os testes existentes passam',
    },
    testsProve: {
      question: 'O que os testes devem provar? Indique os casos ou a cobertura a atingir.',
      placeholder: 'toda função exportada tem um teste; cobertura de branches de src/lib/ de pelo menos 90%',
    },
    done: {
      question: 'Como vamos saber que está pronto? Indique um resultado mensurável ou as verificações que devem passar.',
      placeholder: 'a página carrega em menos de 1 s com 1.000 linhas; `npm test` passa',
    },
    focusAreas: {
      question: 'No que a revisão deve se concentrar?',
      placeholder: 'injeção de SQL e verificações de permissão nas novas rotas de administração',
    },
    findingsFormat: { question: 'Como devo apresentar os apontamentos?', placeholder: 'Markdown, severidade Critical/Major/Minor' },
    outputFormat: { question: 'Em que formato você quer o resultado?', placeholder: 'uma tabela Markdown e um gráfico em PNG' },
    rateLimit: { question: 'Com que frequência posso buscar as páginas?', placeholder: 'no máximo 1 requisição por segundo' },
    errorHandling: {
      question: 'O que fazer quando uma requisição falha ou excede o tempo limite?',
      placeholder: 'tentar de novo duas vezes com espera crescente e depois pular a página',
    },
    logging: { question: 'O que deve ser registrado em log?', placeholder: 'cada URL que falhar, com o código de status e o motivo' },
    more: (element) => `Você pode me contar mais sobre “${element}”?`,
  },
  modal: { title: 'Adicionar detalhes', submit: 'Começar', close: 'Cancelar', instruction: 'Sua instrução' },
  onlyRequesterAddsDetails: 'Só quem fez o pedido, ou um aprovador, pode adicionar detalhes aqui.',
  onlyRequesterStarts: 'Só quem fez o pedido, ou um aprovador, pode iniciar isto.',
  whichRepository: 'Este canal trabalha com vários repositórios e não sei para qual é esta solicitação. Clique no certo ou responda aqui dizendo qual.',
  repositoryChosen: (user, repository) => `<@${user}> escolheu *${repository}*: começando lá.`,
  onlyRequesterChoosesRepository: 'Só quem fez o pedido, ou um aprovador, pode escolher o repositório.',
  nameTheRepository: (repositories) => `Ainda não sei para qual repositório é: clique em um dos botões acima ou cite um de ${repositories} na sua resposta.`,
  tooLarge: (step) =>
    `Isso é grande demais para fazer bem de uma vez só, então não vou começar assim. Um primeiro passo delimitado que eu poderia dar:\n> ${step}\nMencione-me com ele (ou com o seu próprio primeiro passo) nesta thread, ou clique em *Começar mesmo assim*.`,
  questionIntro: (requester) => `<@${requester}> Tenho uma pergunta antes de continuar:`,
  decideYourself: 'Decida você',
  deadline: (hasButtons, date) =>
    `${hasButtons ? 'Clique em um botão ou responda' : 'Responda'} nesta thread, ou deixe que eu decida; enquanto isso, a execução fica pausada. Sem resposta até ${date}, termino com o que tenho.`,
  asked: (requester) => `<@${requester}> Eu perguntei:`,
  answered: (by, answer) => `<@${by}> respondeu: ${answer}`,
  cancelledBy: (user) => `_Cancelado por <@${user}> antes de chegar uma resposta._`,
  noAnswerInTime: '_Nenhuma resposta chegou a tempo, então termino com o que tenho._',
  reminder: (requester, question, date) =>
    `<@${requester}> Um lembrete: ainda estou aguardando sua resposta à minha pergunta acima (${question}). Sem resposta até ${date}, termino com o que tenho.`,
  dateAt: 'às',
  questionStale: 'Essa pergunta já foi respondida ou expirou.',
  questionSettled: (outcome: string) => `Essa pergunta já foi resolvida: ${outcome}`,
  questionNotYours: (requester) =>
    `Obrigado! Fiz essa pergunta a <@${requester}>, então aguardo a resposta dessa pessoa (ou de um aprovador); sua mensagem não foi considerada como resposta.`,
  lateAnswer: (question, date, mention) =>
    `Minha pergunta (“${question}”) expirou ${date} sem resposta, então aquela execução terminou com o que tinha, e sua mensagem não foi considerada como resposta. Para continuar, mencione-me nesta thread com a sua resposta (${mention} seguido dela): isso inicia uma execução de acompanhamento que continua o trabalho desta thread.`,
  questionExpired: ':warning: Esta execução estava aguardando a resposta à sua pergunta, mas a conversa salva expirou, então ela não pode continuar.',
  questionExpiredNext: 'Mencione-me nesta thread para começar de novo; o trabalho enviado antes da pergunta está na branch.',
  phases: {
    queued: ':hourglass_flowing_sand: Na fila',
    preparing: ':package: Preparando o ambiente de trabalho',
    working: ':hammer_and_wrench: Trabalhando',
    waiting: ':question: Aguardando uma resposta',
    verifying: ':test_tube: Verificando',
    publishing: ':outbox_tray: Abrindo o pull request',
    done: ':white_check_mark: Concluído',
    failed: ':x: Falhou',
    cancelled: ':no_entry_sign: Cancelado',
  },
  after: (elapsed) => `após ${elapsed}`,
  usually: (elapsed, typical) => `${elapsed} (normalmente ${typical})`,
  seeEveryStep: 'ver todas as etapas',
  opened: (draft, pull, counts) => `${draft ? ':warning:' : ':white_check_mark:'} Pull request${draft ? ' em rascunho' : ''} aberto: ${pull}${counts}`,
  updated: (draft, pull, counts) => `:arrows_counterclockwise: Pull request${draft ? ' em rascunho' : ''} atualizado: ${pull}${counts}`,
  answeredNoChange: ':speech_balloon: Nenhum arquivo foi alterado, então não há pull request. Minha resposta:',
  stoppedWithPull: (draft, pull, counts) =>
    `:warning: Parou antes de terminar; o trabalho feito até agora está em ${pull}${draft ? ' (rascunho)' : ''}${counts}`,
  stoppedNoChanges: ':warning: Parou antes de terminar, sem alterações.',
  runFailed: ':x: A execução falhou.',
  pausedOnQuestion: ':question: Pausado até que minha pergunta acima seja respondida.',
  everyStepOfThisRun: 'Todas as etapas desta execução',
  replyRefused: ':information_source: O Slack não aceitou a resposta inteira, então aqui vai a forma curta.',
  filesFromThisRun: (names) => `:paperclip: Arquivos desta execução: ${names}`,
  progress: {
    cloning: ({ repository, readOnly }) => `clonando ${repository}${readOnly ? ' (somente leitura)' : ''}`,
    checkingOut: ({ branch }) => `fazendo checkout de ${branch}`,
    checkingOutHead: ({ number }) => `fazendo checkout da versão mais recente de #${number} (somente leitura)`,
    readingPull: ({ number }) => `lendo o pull request #${number}`,
    preparingReadOnly: ({ repository }) => `preparando uma cópia somente leitura de \`${repository}\``,
    preparingBranch: ({ branch, base }) => `preparando uma branch \`${branch}\` a partir de \`${base}\``,
    installing: ({ command }) => `instalando as dependências (\`${command}\`)`,
    installingNode: ({ version, source }) => `instalando o Node.js ${version} (${source})`,
    refreshing: ({ command }) => `atualizando as dependências restauradas (\`${command}\`)`,
    dependenciesInPlace: 'as dependências dos mesmos lockfiles já estão instaladas',
    dependenciesRestored: 'dependências restauradas de uma instalação anterior dos mesmos lockfiles',
    installFailed: ({ command, timedOut, exitCode, egress }) =>
      `não foi possível instalar as dependências: \`${command}\` ${exit(timedOut, exitCode)}${egress?.length ? `. ${setupEgressLine(egress, egressWords)}` : ''}`,
    refreshFailed: ({ command, timedOut, exitCode }) => `não foi possível atualizar as dependências: \`${command}\` ${exit(timedOut, exitCode)}`,
    testsOnBase: 'rodando os testes no commit base',
    readingCode: 'lendo o código',
    reviewingPull: ({ number }) => `revisando #${number}`,
    reviewingCode: 'revisando o código',
    investigating: 'investigando o código (somente leitura, sem rede)',
    readingIncident: 'lendo o incidente, seus alertas e seus logs',
    readingChanges: ({ branch, hours, before }) =>
      `lendo as alterações em \`${branch}\` ${before === 'incident' ? `nas ${hours} h antes do incidente` : `das últimas ${hours} h`}`,
    running: ({ command }) => `rodando \`${command}\``,
    reading: ({ path }) => `lendo ${path}`,
    editing: ({ path }) => `editando ${path}`,
    askingServer: ({ server, tool }) => `consultando ${server} (${tool})`,
    askingRequester: 'fazendo uma pergunta a você',
    updatingPlan: 'atualizando seu plano',
    queryingMetrics: ({ query }) => `consultando métricas: \`${query}\``,
    listingMetrics: ({ mode, label, match }) => `listando ${mode} de métricas${label ? ` ${label}` : ''}${match ? ` de \`${match}\`` : ''}`,
    tool: ({ name }) => name,
    testsAfterChange: 'rodando os testes depois da alteração',
    testsAfterRevert: 'rodando os testes depois da reversão',
    testsAgain: 'rodando os testes de novo',
    waitingForBaseline: 'aguardando os testes no commit base',
    fixingBreakage: 'corrigindo o que a alteração quebrou',
    regressionTestFails: 'verificando que o teste de regressão falha sem a correção',
    coverageOnBase: ({ command }) => `medindo a cobertura no commit base (\`${command}\`)`,
    coverageAfter: 'medindo a cobertura depois da alteração',
    downloading: ({ count }) => `baixando ${count} ${count === 1 ? 'arquivo anexado' : 'arquivos anexados'}`,
    pushing: ({ branch }) => `enviando ${branch}`,
    pushingDraft: ({ branch }) => `enviando \`${branch}\` e abrindo um pull request em rascunho`,
    keepingWork: ({ branch }) => `guardando o trabalho feito até agora em ${branch}`,
    askedQuestion: ({ user }) => `fez uma pergunta a ${user}`,
    nothingPushed: 'nada foi enviado',
    cancelledBeforeStart: 'cancelada antes de começar',
    stoppedDuring: ({ by, stage }) =>
      `interrompida por ${by} durante ${{ setup: 'a preparação (clonar e instalar as dependências)', work: 'o trabalho', checks: 'as verificações', publishing: 'a publicação' }[stage]}`,
    retrying: ({ problem }) => `tentando de novo em instantes após um problema temporário: ${problem}`,
    waitingThread: 'aguardando a execução que já está em andamento nesta thread',
    waitingGlobal: 'aguardando uma vaga livre (todos os workers estão ocupados)',
    waitingRepository: 'aguardando outras execuções neste repositório terminarem',
    waitingUser: 'aguardando suas outras execuções terminarem',
    waitingDisk: ({ freeMb, needMb }) => `aguardando espaço em disco no worker (${freeMb} MB livres, ${needMb} MB necessários para começar)`,
  },
  refactoring: {
    suiteFailsHeadline: ':warning: A suíte de testes já falha no commit base, então não comecei a refatoração.',
    suiteFailsAnswer: (test, failures) =>
      `Uma refatoração precisa manter passando uma suíte que passa, e ${test} já falha antes de qualquer alteração: ${failures}. Corrija esses testes primeiro, ou mencione-me de novo dizendo para refatorar mesmo com os testes falhando.`,
    timedOut: 'excedeu o tempo limite',
    failing: (count, names) => `${count} falhando, incluindo ${names}`,
    exitCode: (code) => `código de saída ${code}`,
    draftSuiteFails: 'Uma refatoração precisa deixar a suíte inteira passando, e ela falha depois desta alteração.',
    movedAndRenamed: 'Movido e renomeado',
    moved: (what, from, to) => `- ${what} movido: ${from} → ${to}`,
    renamed: (kind, from, to) => `- ${kind ? `${kind} ` : ''}${from} renomeado para ${to}`,
    fullSuite: 'Suíte completa',
    suiteBeforeAfter: (command, before, after) =>
      `${command} ${before === undefined ? 'não foi executado' : before ? 'passa' : 'falha'} no commit base e ${after ? 'passa' : 'falha'} depois da refatoração.`,
  },
  plan: {
    stages: {
      reading: 'Ler a solicitação',
      preparing: 'Preparar o ambiente de trabalho',
      working: 'Trabalhar na alteração',
      answering: 'Ler o código para a resposta',
      edits: 'Editar arquivos (o agente)',
      'agent-tests': 'Rodar os testes (o agente)',
      verifying: 'Verificar: rodar os testes e as verificações',
      publishing: 'Publicar: abrir ou atualizar o pull request',
      question: 'Aguardar a resposta à minha pergunta',
    },
    workingOn: (repository) => `Trabalhando em ${repository}`,
    state: (state, what) =>
      `${{ queued: 'Na fila', waiting: 'Pausado, aguardando uma resposta', done: 'Concluído', failed: 'Falhou', cancelled: 'Cancelado' }[state]}: ${what}`,
    cancelled: 'Cancelado',
    stopHint: 'para parar, mencione-me com "stop"',
    agentStep: (step) => `${step} (plano do agente)`,
    droppedStep: 'removido do plano do agente',
    notMarkedDone: 'não marcado como feito pelo agente',
    editedFiles: (count, files) => `${count} ${count === 1 ? 'arquivo' : 'arquivos'}: ${files}`,
    testRuns: (count, command) => `${count} ${count === 1 ? 'execução' : 'execuções'}, a última: ${command}`,
    everyStepOnPage: 'Todas as etapas na página da execução',
    couldNotQueue: 'não foi possível colocar a execução na fila',
    behindThreadRun: 'atrás da execução que já está em andamento nesta thread',
    queuePosition: (position) => `posição ${position} na fila`,
    restOnPage: 'O restante está na página da execução.',
  },
  stoppedEarlyDetail: 'parou antes de terminar',
  draftDetail: ' (rascunho)',
  report: {
    outcomeSetupFailed: (setup) =>
      `Resultado: o Wrench não conseguiu instalar as dependências (\`${setup}\` falhou), então as verificações dele não mostram se a alteração funciona.`,
    outcomeRegressed: (command, fails, counts) =>
      `Resultado: a alteração quebrou verificações que passavam antes; \`${command}\` ${fails ? 'falha' : 'passa'}${counts}.`,
    outcomeFails: (command, counts, asBefore) => `Resultado: \`${command}\` falha depois da alteração${counts}${asBefore ? ', como antes' : ''}.`,
    outcomePasses: (command, counts) => `Resultado: \`${command}\` passa depois da alteração${counts}.`,
    outcomePrefix: 'Resultado:',
    summary: 'Resumo',
    summaryAccount: 'Resumo (segundo o agente)',
    summaryContradicted: 'Resumo (afirmação do agente, contrariada pelas verificações do Wrench)',
    verification: 'Verificação (executada pelo Wrench)',
    draftReason: 'Por que é um rascunho',
    stoppedEarly: 'Parou antes de terminar',
    changes: 'Alterações (segundo o diff commitado)',
    claimedNotChanged: 'O agente diz que alterou, mas não alterou',
    sectionAccount: (title) => `${title} (segundo o agente)`,
    sectionContradicted: (title) => `${title} (afirmação do agente, contrariada pelas verificações do Wrench)`,
    ownChecksUnconfirmed: 'O que o agente diz ter verificado (não confirmado pelo Wrench)',
    ownChecksContradicted: 'O que o agente diz ter verificado (contrariado pelas verificações do Wrench)',
    openQuestions: 'Perguntas em aberto (do agente)',
    measuredFailed: (command, counts) => `Medido pelo Wrench: \`${command}\` falhou depois da alteração${counts}.`,
    measuredRegressed: 'Medido pelo Wrench: verificações que passavam antes da alteração falham depois dela (veja Verificação).',
    agentSays: (description) => `: segundo o agente: ${description}`,
    claimedOnly: (change) => `: o agente diz que alterou, mas não alterou (ele disse: ${change})`,
    instructionsRead: (files) => `Li as instruções do repositório para agentes: ${files}.`,
    instructionTruncated: '(truncado)',
    instructionOmitted: '(omitido: limite de tamanho)',
    instructionSameAs: (path) => `(igual a ${path})`,
    steps: (n) => `${n} ${n === 1 ? 'etapa' : 'etapas'}`,
    files: (n) => `${n} ${n === 1 ? 'arquivo' : 'arquivos'}`,
    tokens: 'tokens',
  },
  verification: {
    verdicts: { improved: 'melhorou', unchanged: 'igual a antes', regressed: 'piorou', 'not-run': 'não executadas' },
    passed: 'passou',
    failed: 'falhou',
    timedOut: 'excedeu o tempo limite',
    timedOutAfter: (duration) => `excedeu o tempo limite após ${duration}`,
    setupTimedOut: (duration) => `excedeu o tempo limite após ${duration}`,
    exitedWith: (code) => (code === null ? 'foi interrompido (sem código de saída)' : `terminou com o código de saída ${code}`),
    failedWithExit: (code) => `falhou (código de saída ${code ?? 'nenhum: processo interrompido'})`,
    couldNotInstall: 'não foi possível instalar as dependências',
    noTestCommand: 'Nenhum comando de teste encontrado (você pode defini-lo em `verification:` no wrench.config.yml).',
    notRun: (command) => `${command} não foi executado.`,
    setupFailed: (command, how) =>
      `**Não foi possível instalar as dependências**: ${command} ${how}. As verificações abaixo rodaram sem elas, então não mostram se a alteração funciona.`,
    baseSetupFailed: (command, how) =>
      `**Não foi possível instalar as dependências no commit base**: ${command} ${how}. Por isso as verificações do commit base não contam, e as da alteração não são comparadas com nada.`,
    lastLines: 'As últimas linhas da saída:',
    setupRemembered: (ago) =>
      `Não foi executado de novo: falhou há ${ago} com os mesmos arquivos de lock, o mesmo comando de setup e os mesmos runtimes, e é essa execução que aparece aqui. Ele roda de novo quando a falha fica mais antiga que \`cache.setupFailureMinutes\`.`,
    header: (withBaseline, verdict) =>
      `Verificações executadas pelo Wrench ${withBaseline ? 'no commit base e depois da alteração' : 'depois da alteração'}: **${verdict}**.`,
    newFailures: (names) => `Novas falhas: ${names}.`,
    stillFailing: (names) => `Ainda falhando (já falhavam antes da alteração): ${names}.`,
    fixed: (names) => ` Corrigidos: ${names}.`,
    andMore: (names, more) => `${names} e mais ${more}`,
    sameAsBefore: (outcome) => `igual a antes: ${outcome}`,
    beforeAfter: (before, after) => `antes ${before} → depois ${after}`,
    afterOnly: (outcome) => `${outcome} depois da alteração; o commit base não foi verificado`,
    bothTimes: (state) => `${state} antes e depois`,
    stateChange: (before, after) => `${before} antes → ${after} depois`,
    outputEnd: (command) => `Saída de ${command} (final):`,
    ...egressWords,
  },
  regression: {
    rootCause: 'Causa raiz',
    regressionTest: 'Teste de regressão',
    noTest: ':warning: Nenhum teste de regressão: a alteração não adiciona nem modifica nenhum arquivo de teste, então nada mostra que o bug foi corrigido.',
    testsOnly: 'A alteração mexe só em testes, então não há nenhuma correção contra a qual verificá-los.',
    noCommand: 'Nenhum comando de teste encontrado, então o teste de regressão não pôde ser executado.',
    checkedBy: (files) =>
      `_Verificado pelo Wrench: os testes rodaram com os arquivos-fonte corrigidos (${files}) como estavam no commit base, e depois com a correção._`,
    proven: (test, how) => `:white_check_mark: O teste de regressão ${test} falhava sem a correção e passa com ela${how}.`,
    failingAfter: (test, how) => `:x: O teste de regressão ${test} continua falhando com a correção${how}.`,
    notFailingBefore: (test, how) => `:warning: ${test} também passa sem a correção, então não demonstra o bug${how}.`,
    notRun: (test, how) => `${test} não foi executado${how}.`,
    couldNotCheck: (error) => `Não consegui verificar o teste de regressão: ${error}`,
  },
  coverage: {
    title: 'Cobertura de testes',
    metrics: { lines: 'linhas', statements: 'instruções', coverage: 'cobertura' },
    notMeasured: 'não medida',
    notMeasuredFailed: 'não medida (o comando falhou)',
    afterOnly: (command, metric, after) => `${command}: ${metric} ${after} depois da alteração (o commit base não foi medido).`,
    beforeAfter: (command, metric, before, after, change) => `${command}: ${metric} ${before} antes → ${after} depois${change}.`,
    unchanged: ' (sem alteração)',
    points: (delta) => ` (${delta} pontos percentuais)`,
  },
  analysis: {
    mainResult: 'Resultado principal',
    fromReport: (path) => `De ${path}; o relatório e os gráficos estão anexados a este resultado (não commitados).`,
    noTable: (path) => `${path} não contém nenhuma tabela; o arquivo está anexado abaixo.`,
    noReport: (folder) => `A execução não deixou nenhum relatório em ${folder}.`,
    notUploaded: 'Não enviados',
    skippedType: 'não é um tipo de relatório ou gráfico que eu compartilho',
    skippedCount: (max) => `mais de ${max} arquivos`,
    skippedSize: 'grande demais para enviar',
  },
  schedules: schedulesPt,
  images: {
    notImage: (name) => `${name} não é uma imagem PNG, JPEG, GIF ou WebP (pelo seu conteúdo), por isso não foi enviada.`,
    unreadable: (name) => `${name} não pôde ser lida como imagem (está danificada ou incompleta).`,
    tooLarge: (name) => `${name} é grande demais para enviar, mesmo reduzida.`,
    notDownloaded: (name) => `${name} não pôde ser baixada do Slack.`,
    tooMany: (max, names) => `Só as primeiras ${max} imagens são enviadas; ficaram de fora: ${names}.`,
  },
  stop: {
    cancelledBy: (user, via) => `Cancelada por ${user}${via === 'page' ? ' na página da execução' : via === 'home' ? ' pelo App Home' : ''}.`,
    cancelled: 'Cancelada.',
    cancelledWhileWaiting: (user) => `Cancelada por ${user} enquanto aguardava uma resposta.`,
    restarting: 'O Wrench estava reiniciando, então esta execução parou.',
    toGoOn: 'Para continuar, mencione-me nesta thread.',
    noAnswer: (waited) => `Ninguém respondeu à minha pergunta em ${waited}, então parei por aí.`,
    nothingPushedBranch: (branch) => `Nada foi enviado; ${branch} está como estava antes desta execução.`,
    noBranchYet: 'Nada tinha mudado ainda, então não há branch.',
    nothingPushedPull: (branch) =>
      `Nada foi enviado: ${branch} e o pull request dela estão como estavam antes desta execução, e as alterações inacabadas foram descartadas.`,
    keptInPull: (draft, number, branch) => `O trabalho feito até então está no pull request${draft ? ' em rascunho' : ''} #${number} (branch ${branch}).`,
    keptOnBranch: (branch) => `O trabalho feito até então está na branch ${branch}.`,
    stepLimit: (steps) => `O limite de etapas (${steps} ${steps === 1 ? 'etapa' : 'etapas'}) foi atingido.`,
    timeLimit: (minutes) => `O tempo disponível (${minutes} min) acabou.`,
    costLimit: (cap, spent) => `O limite de custo ($${cap}) foi atingido ($${spent} gastos).`,
    tokenLimit: (tokens) => `O orçamento de tokens (${tokens} tokens) se esgotou.`,
    refused: 'O modelo se recusou a continuar com esta tarefa.',
    contextExhausted: 'A conversa não cabe mais na janela de contexto do modelo.',
    modelApiFailed: (status, text) => `A API do modelo falhou${status ? ` (HTTP ${status})` : ''} mesmo após novas tentativas: ${text}`,
    agentFailed: (text) => `O agente falhou: ${text}`,
  },
  finishedNoChange: 'Terminei sem alterar nenhum arquivo.',
  draft: {
    regressed: 'Verificações que passavam antes desta alteração agora falham (veja Verificação); uma rodada do agente para corrigi-las não teve sucesso.',
    protectedPaths: (paths) =>
      `Esta alteração mexe em caminhos protegidos (${paths}); um aprovador precisa revisá-la e liberá-la antes que seja marcada como pronta.`,
    runtimeMismatch: (runtimes) =>
      `As verificações não puderam rodar no runtime que o repositório pede, então não mostram o que a CI dele mostraria: ${runtimes}`,
  },
  failure: {
    interrupted: (times) =>
      `o worker que a executava parou ${times} vezes durante a execução (encerrado ou travado), por isso ela não foi iniciada de novo e não tem resultado. Mencione-me para pedir de novo; o que ela enviou antes está no branch dela.`,
    runFailed: (message) => `A execução falhou: ${message}`,
    githubRefused: (status, text) =>
      `O GitHub recusou a requisição (HTTP ${status}): ${text}. Verifique se o GITHUB_TOKEN pode fazer push e abrir pull requests neste repositório.`,
    githubNotFound: 'O GitHub não encontrou o repositório ou a branch (HTTP 404). Verifique o nome do repositório e os acessos do token.',
    githubRejected: (text) => `O GitHub rejeitou o pull request (HTTP 422): ${text}.`,
    githubFailed: (status, text) => `Erro do GitHub (HTTP ${status}): ${text}. Tente de novo em alguns minutos.`,
    unexpected: (text) =>
      `A execução falhou de forma inesperada: ${text}. Tente de novo; se continuar falhando, um administrador pode verificar os logs deste job.`,
  },
  errors: {
    pushBlockedSecret: ({ branch, places, reword, held }) => {
      const kind = (k: SecretKind) => ('own' in k ? `o próprio ${k.own} do Wrench` : `algo que parece ${SECRET_RULES_PT[k.rule] ?? 'uma credencial'}`);
      const where = places.map((place) =>
        'file' in place
          ? `\`${place.file}\` linha ${place.line} contém ${kind(place.kind)}`
          : `a mensagem do commit ${place.message} (linha ${place.line}) contém ${kind(place.kind)}`,
      );
      const fix = reword ? 'remova a credencial (e reescreva a mensagem desse commit)' : 'remova a credencial';
      const on = held?.host ? `no worker do Wrench \`${held.host}\`` : 'na máquina do Wrench';
      const kept = held
        ? ` Os commits estão guardados ${on} como bundle retido \`${held.id}\`${held.days ? ` por ${held.days} dias` : ''} (legível só pelo usuário do Wrench; \`wrench doctor\` ${held.host ? 'nesse' : 'no'} worker os lista); um operador os obtém em um clone do repositório com ${fetchHeld(held.id, held.ref)}.`
        : '';
      return `Não fiz push de \`${branch}\`: ${where.join('; ')}. Nada desta execução saiu desta máquina; ${fix} e mencione-me de novo para tentar outra vez.${kept}`;
    },
    githubNotConfigured: ({ need }) =>
      need === 'review'
        ? 'Revisar um pull request precisa de uma credencial do GitHub; defina GITHUB_TOKEN ou, para um GitHub App, GITHUB_APP_ID e GITHUB_APP_PRIVATE_KEY_PATH.'
        : 'Nenhuma credencial do GitHub está configurada, então não posso abrir um pull request. Defina GITHUB_TOKEN ou, para um GitHub App, GITHUB_APP_ID e GITHUB_APP_PRIVATE_KEY_PATH.',
    repositoryNotFound: ({ repository }) =>
      `${repository} não foi encontrado, ou as credenciais do GitHub do Wrench não conseguem lê-lo: verifique o repositório vinculado a este canal (wrench.config.yml) e se o Wrench tem acesso a ele.`,
    baseBranchNotFound: ({ repository, branch }) => `${repository} não tem nenhuma branch "${branch}"; indique uma branch base que exista.`,
    noDefaultBranch: 'O repositório não tem branch padrão (está vazio?); faça push de um primeiro commit ou indique uma branch base.',
    branchNotFound: ({ repository, branch }) => `A branch "${branch}" não existe mais em ${repository}; inicie uma nova tarefa.`,
    branchExists: ({ repository, branch }) => `A branch "${branch}" já existe em ${repository}; continue nela ou escolha outro nome.`,
    branchMoved: ({ branch, git }) =>
      git
        ? `Não consegui fazer push da branch "${branch}": a branch remota tem commits que este ambiente de trabalho não tem (${git}).`
        : `Não consegui fazer push da branch "${branch}": a branch remota mudou desde que este ambiente de trabalho a buscou.`,
    pushFailed: ({ branch, when, git }) =>
      when === 'pushing'
        ? `Não consegui fazer push da branch "${branch}": ${git}; verifique se a credencial do GitHub pode fazer push neste repositório.`
        : `Não consegui fazer push da branch "${branch}": ${when === 'listing' ? 'não consegui ler as branches do remoto antes do push' : 'não foi possível verificar o push'} (${git}).`,
    pushNotThere: ({ branch, sha, remoteSha }) =>
      remoteSha
        ? `Não consegui fazer push da branch "${branch}": a branch remota está em ${remoteSha}, não em ${sha}.`
        : `Não consegui fazer push da branch "${branch}": a branch remota não existe, mas deveria estar em ${sha}.`,
    branchConflict: ({ branch, side, files }) =>
      `Alguém fez push em \`${branch}\` enquanto eu trabalhava, e minhas alterações entram em conflito com as dessa pessoa${codeList(files, (list) => ` (${list})`)}. Meu trabalho está guardado na branch \`${side}\`: faça o merge à mão, ou mencione-me aqui para refazê-lo sobre a branch atual.`,
    revertConflict: ({ sha, files }) =>
      `Reverter ${sha} entra em conflito com alterações posteriores em ${files.join(', ') || 'alguns arquivos'}; reverta à mão ou peça ao Wrench para desfazer exatamente essas alterações.`,
    diskFull: ({ kept }) =>
      kept
        ? `O disco do diretório de dados do Wrench encheu (sem espaço livre), então parei antes de terminar. Nada se perdeu: o trabalho feito (o que eu tinha commitado e o que não) está guardado ${kept.host ? `no worker do Wrench \`${kept.host}\`` : 'na máquina do Wrench'} em \`$WRENCH_DATA_DIR/held/${kept.id}.tree\`${kept.days ? ` por ${kept.days} dias` : ''}. Quando a operação liberar espaço, me mencione para tentar de novo.`
        : 'O disco do diretório de dados do Wrench está cheio (sem espaço livre), então a execução não pôde começar o trabalho; nada foi alterado. Quando a operação liberar espaço, me mencione para tentar de novo.',
  },
  answer: answerPt,
  review: {
    reviewOf: (subject, count) => `:mag: Revisão de ${subject}${count ? `: ${count}` : ''}`,
    onBranch: (repository, branch) => `${repository} em ${branch}`,
    noFindingsCount: 'nenhum apontamento',
    findingsCount: (total, counts) => `${total} ${total === 1 ? 'apontamento' : 'apontamentos'}: ${counts}`,
    findings: 'Apontamentos',
    noFindings: 'Nenhum apontamento: não encontrei nada a destacar.',
    none: 'Nenhum.',
    focusAreas: 'Pontos de atenção',
    suggestedFix: 'Correção sugerida:',
    onGitHub: 'No GitHub',
    posted: (inline, url) =>
      `Publicada como revisão só com comentários, com ${inline} ${inline === 1 ? 'comentário na linha' : 'comentários nas linhas'}${url ? `: ${url}` : '.'}`,
    couldNotPost: (error) => `Não consegui publicar a revisão no GitHub (${error}); os apontamentos acima estão completos.`,
    noReport: 'A revisão terminou sem relatório.',
    incomplete: 'A revisão está incompleta.',
    noSuchPull: (repository, number) => `:grey_question: \`${repository}\` não tem nenhum pull request #${number}, então não há nada para revisar.`,
    checkNumber: (number) =>
      `Verifique o número, ou indique o repositório se o pull request estiver em outro: \`review PR #${number} in owner/repo\` (ou cole a URL dele).`,
  },
  notQueued: {
    task: 'esta tarefa',
    triage: 'esta triagem',
    invalidJob: (what, error) =>
      `:x: Não consegui colocar ${what} na fila: ${error}. Isso é um bug do Wrench, não algo que você fez; mencionar-me de novo não vai ajudar. Avise um administrador (os detalhes estão no log do Wrench).`,
    queueUnavailable: (what) =>
      `:x: Não consegui colocar ${what} na fila porque minha fila de jobs (Redis) está indisponível. Mencione-me de novo daqui a um minuto; se continuar falhando, peça a um administrador para rodar \`wrench doctor\`.`,
    unexpected: (what) =>
      `:x: Não consegui colocar ${what} na fila por causa de um erro inesperado. Mencione-me de novo daqui a um minuto; se continuar falhando, peça a um administrador para olhar o log do Wrench.`,
  },
  steered:
    'Repassado ao agente em execução: ele vai ler isto antes da próxima chamada ao modelo, sem recomeçar do zero. Se a execução terminar antes, mencione-me aqui para transformar isto em um acompanhamento.',
  steeredFromPage: (user) => `<@${user}> escreveu para o agente em execução pela página da execução:`,
  steeringUnread: (count) =>
    `${count === 1 ? 'Esta mensagem chegou' : 'Estas mensagens chegaram'} à execução depois da última etapa, então ela não ${count === 1 ? 'a leu' : 'as leu'}:`,
  steeringWrote: (name) => `${name} escreveu:`,
  personInThread: 'uma pessoa da thread',
  steeringFollowUp: 'Mencione-me aqui com o que você ainda quer e eu faço como acompanhamento.',
  nothingRunning: 'Nada está em execução nesta thread.',
  restartedAfterInterruption: ':arrows_counterclockwise: O Wrench reiniciou após uma interrupção: esta execução começa de novo do início.',
  restartedFromBranch: (branch: string) =>
    `:arrows_counterclockwise: O Wrench reiniciou após uma interrupção: esta execução continua a partir dos commits que a tentativa anterior enviou para \`${branch}\`.`,
  help: (me) =>
    [
      `Olá! Mencione ${me} com uma tarefa de desenvolvimento e eu trabalho no repositório deste canal e abro um pull request.`,
      `Por exemplo: \`${me} adicione testes para formatBytes em src/lib/format.ts cobrindo 0, 1023 e 1024 bytes; npm test deve passar\``,
      `Também faço: \`${me} review PR #42\`, \`${me} corrija o TypeError em src/cart.ts:88\`, \`${me} triage: o checkout retorna 500 desde 14:05\`.`,
    ].join('\n'),
  noRepository: (config) =>
    `Este canal ainda não está vinculado a nenhum repositório, então não sei onde trabalhar.\nIndique um na sua mensagem (por exemplo \`in acme/web\`) ou vincule o canal no \`wrench.config.yml\`:\n${config}`,
  repositoryNotAllowed: (repository) =>
    `Não tenho permissão para trabalhar em ${repository}.\nUm administrador pode permitir isso adicionando-o (ou um padrão como \`owner/*\`) em \`repos:\` no \`wrench.config.yml\`.`,
  sharedChannel:
    'O Wrench não aceita trabalho em canais do Slack Connect aqui. Um administrador pode permitir isso com `access.sharedChannels: true` no `wrench.config.yml`.',
  instructionTooLong: (length, max) =>
    `Essa instrução tem ${length} caracteres; aceito no máximo ${max}. Encurte-a, ou anexe o material longo (logs, dados) como arquivo e faça referência a ele.`,
  takingFailed:
    ':x: Algo deu errado enquanto eu recebia esta solicitação, então nada foi iniciado. Mencione-me de novo daqui a um minuto; se continuar acontecendo, um administrador pode rodar `wrench doctor`.',
  redisLostRetaken:
    ':warning: O Redis do Wrench perdeu os dados (reiniciou vazio) depois que aceitei este pedido, e o lugar dele na fila se perdeu. Eu tinha guardado uma cópia e estou aceitando-o de novo desde o início; você não precisa fazer nada.',
  redisLostWhileRunning:
    ':warning: O Redis do Wrench perdeu os dados (reiniciou vazio) enquanto este pedido estava em execução. O resultado ainda pode chegar aqui; se não chegar em alguns minutos, peça de novo.',
  runSilentEnded: (minutes, limit) =>
    `:warning: Esta execução começou há ${minutes} min e terminou, mas nenhum resultado ou erro chegou a esta conversa (o limite de tempo dela é de ${limit} min). Algo deu errado do lado do Wrench; peça de novo, por favor.`,
  runSilentRunning: (minutes, limit) =>
    `:warning: Esta execução começou há ${minutes} min, além do limite de ${limit} min, e ainda não enviou nenhum resultado. Ela pode estar travada: o resultado ainda pode chegar aqui; se não chegar, pare-a e peça de novo.`,
  mentionDropped: (attempts) =>
    `:x: Não consegui aceitar esta solicitação: o processamento falhou ${attempts} vezes. Nada foi iniciado; mencione-me de novo para tentar outra vez.`,
  notAuthorized:
    'Você não está na lista de pessoas que podem iniciar trabalho com o Wrench aqui. Peça a um administrador para adicionar seu ID de usuário do Slack em `access.users` no `wrench.config.yml`.',
  triage: {
    queued: (repository) => `:mag: Triagem na fila: vou investigar ${repository} em modo somente leitura (as alterações recentes e o código) e relatar aqui.`,
    working: (detail) => `:mag: Triagem: ${detail}`,
    investigating: 'investigando',
    finished: (elapsed) => `:white_check_mark: Triagem concluída em ${elapsed}`,
    failedAfter: (elapsed) => `:x: A triagem falhou após ${elapsed}`,
    cancelled: ':no_entry_sign: Triagem cancelada',
    failed: (message) => `:x: A triagem falhou. ${message}`,
    reportOf: (subject) => `:mag: *Triagem de ${subject}*`,
    reportSummary: (subject, verdict) => `Triagem de ${subject}: ${verdict}`,
    verdict: '*Veredito* (leitura do agente):',
    whatIsGoingOn: '*O que está acontecendo* (leitura do agente)',
    noGoodLead: '*Nenhuma pista sólida.* Não encontrei evidências que apontem para uma causa, então não vou chutar uma.',
    hypothesis: '*Hipótese* (do agente; nenhuma evidência de apoio encontrada, confiança baixa)',
    likelyCause: (confidence) => `*Causa provável* (leitura do agente, confiança: *${confidence}*)`,
    confidence: { low: 'baixa', medium: 'média', high: 'alta' },
    evidence: '*Evidências* (como o agente as cita; os links são do Wrench)',
    suspectCommits: (branch) => `*Commits suspeitos* (o mais provável primeiro, em ${branch}; os motivos são do agente)`,
    notOnBaseBranch: '_(não encontrado na branch base)_',
    ruledOut: '*Descartado* (pelo agente)',
    nextSteps: '*Próximos passos* (sugestões do agente)',
    couldNotRead: '*Não foi possível ler* (o relatório se baseia nas demais evidências)',
    openFixPr: 'Abrir PR de correção',
    revert: (sha) => `Reverter ${sha}`,
    revertQuestion: (sha) => `Reverter ${sha}?`,
    revertExplained: (sha, branch) =>
      `O Wrench vai reverter ${sha} em uma nova branch a partir de ${branch}, rodar os testes e abrir um pull request em rascunho. Nada é mergeado.`,
    openRevertPr: 'Abrir PR de reversão',
    dismiss: 'Descartar',
    approversOnly: 'Só aprovadores podem usar estes botões.',
    actions: 'Ações da triagem',
    dismissedBy: (user) => `:no_entry_sign: Descartado por <@${user}>`,
    approversOnlyAction: (action) =>
      `Só aprovadores podem usar "${action}" em uma triagem. Peça a alguém listado em \`access.approvers\` no wrench.config.yml.`,
    revertAlready: (sha) => `Uma reversão de ${sha} já foi pedida a partir desta triagem.`,
    fixAlready: 'Uma execução de correção já foi iniciada a partir desta triagem; acompanhe-a na thread dela.',
    reverting: (sha, base, user) => `:rewind: Revertendo ${sha} em ${base} a pedido de ${user}: preparando uma branch`,
    revertDoing: (sha, what) => `:rewind: Revertendo ${sha}: ${what}`,
    revertWorking: 'trabalhando',
    revertFailed: (sha, message) => `:x: A reversão de ${sha} falhou: ${message}`,
    revertOpened: (number, sha, url, verdict) => `:rewind: Abri o PR em rascunho #${number} que reverte ${sha}: ${url}\n${verdict}`,
    revertNoChecks: 'Nenhuma verificação foi executada depois da reversão.',
    revertOpenAlready: (sha, number, url) => `:information_source: ${sha} já está sendo revertido no PR #${number}: ${url}. Nada novo foi enviado.`,
    revertNotOnBase: (sha, base) =>
      `:warning: ${sha} não está mais em ${base} (houve force push ou nunca foi mergeado), então não há nada a reverter. Nada foi enviado.`,
    revertConflict: (sha, why) => `:warning: Não consegui reverter ${sha} de forma limpa: ${why} Nada foi enviado.`,
    revertBranchExists: (branch) =>
      `:information_source: Já existe uma branch ${branch} sem pull request aberto. Apague-a (ou abra um PR a partir dela) e clique em Reverter de novo. Nada foi enviado.`,
  },
  cancelNotAllowed: 'Só quem pediu esta execução, ou um aprovador, pode cancelá-la.',
  github: {
    closed: (pull, by, merged) =>
      `O ${pull.link(`pull request #${pull.number}`)} ${merged ? `foi mergeado por @${by}` : `foi fechado sem merge por @${by}`}. O trabalho desta thread terminou; mencione-me aqui para começar algo novo (isso ganha uma nova branch e um novo pull request).${merged ? '' : ' Se o pull request for reaberto, esta thread continua com ele.'}`,
    reopenedBusy: (pull, by) =>
      `O ${pull.link(`pull request #${pull.number}`)} foi reaberto por @${by}, mas esta thread começou outro trabalho desde então, então ela não continua aquele pull request aqui. Comente no pull request mencionando-me, ou comece uma nova thread, para trabalhar nele.`,
    reopened: (pull, by, branch) =>
      `O ${pull.link(`pull request #${pull.number}`)} foi reaberto por @${by}: esta thread continua com ele${branch ? ` em ${branch}` : ''}. Mencione-me aqui, ou comente no pull request, para seguir em frente.`,
    commentLead: (kind, author, pull, place) =>
      `@${author} ${{ review: 'pediu alterações no', 'review-comment': 'comentou no', comment: 'escreveu no' }[kind]} ${pull.link(`pull request #${pull.number}`)}${place ? `, em ${place}` : ''}:`,
    reviewLead: (author, pull, changesRequested, count) =>
      `@${author} ${changesRequested ? 'pediu alterações no' : 'revisou o'} ${pull.link(`pull request #${pull.number}`)} com ${count} ${count === 1 ? 'comentário' : 'comentários'}:`,
    place: (path, line, startLine) =>
      line === null ? path : startLine !== null && startLine !== line ? `${path} linhas ${startLine}–${line}` : `${path} linha ${line}`,
    continuing: (branch) => `Vou continuar com isso ${branch ? `em ${branch}` : 'na branch'}.`,
    baseFails: (checks, count, pull, base, baseSha) =>
      `${checks} ${count > 1 ? 'falharam' : 'falhou'} no ${pull.link(`pull request #${pull.number}`)}, mas também ${count > 1 ? 'falham' : 'falha'} em ${base} (${baseSha}), então esta alteração não causou isso; não vou começar uma rodada de correção. Corrija primeiro em ${base}, ou mencione-me aqui com o que fazer.`,
    fixLimit: (checks, count, number, done) =>
      `${checks} ${count > 1 ? 'continuam' : 'continua'} falhando no pull request #${number} depois de ${done} ${done === 1 ? 'rodada' : 'rodadas'} de correção (o limite, \`github.maxFixRounds\`), então não vou tentar de novo; agora precisa de uma pessoa.`,
    failingRun: 'A execução com falha.',
    noEvidence: (checks, count, pull, head) =>
      `${checks} ${count > 1 ? 'falharam' : 'falhou'} no ${pull.link(`pull request #${pull.number}`)} (head ${head}), mas não consegui ler nada sobre o motivo (nenhum log, nenhuma saída, nenhuma anotação), então não vou gastar uma rodada de correção num palpite. Abra o check com falha e diga aqui o que corrigir.`,
    fixRound: (checks, count, pull, head, round, of, earlier) =>
      `${checks} ${earlier ? `${earlier.count > 1 ? 'continuam' : 'continua'} falhando depois da rodada de correção ${earlier.round}` : count > 1 ? 'falharam' : 'falhou'} no ${pull.link(`pull request #${pull.number}`)} (head ${head}). Rodada de correção ${round} de ${of}: estou olhando o que a CI relatou.`,
    passed: (checks, count, pull, head, round) =>
      `${checks} ${count > 1 ? 'passam' : 'passa'} no ${pull.link(`pull request #${pull.number}`)} (head ${head}) depois da rodada de correção ${round}.`,
    statusFailed: (context, pull, head, description, details) =>
      `${context} relatou falha no ${pull.link(`pull request #${pull.number}`)} (head ${head})${description ? `: “${description}”` : ''}.${details ? ` Detalhes: ${details('a execução da CI')}.` : ''} Não consigo ler os logs dessa CI daqui, então não vou começar uma rodada de correção num palpite: cole aqui a saída da falha, ou diga o que corrigir.`,
    couldNotAct: (kind, by, pull, error) =>
      `Não consegui agir sobre ${EVENT_WORDS_PT[kind] ?? 'o evento'}${by ? ` de @${by}` : ''} no ${pull.link(`pull request #${pull.number}`)}: ${error}. Quando isso for corrigido, reenvie-o pelas configurações do GitHub App (Advanced → Recent Deliveries), ou diga aqui o que fazer.`,
  },
};
